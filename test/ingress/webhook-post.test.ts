// The update POST is read on node:http ahead of Fastify's router when its body has a declared length, and by
// Fastify when it is sent chunked: over real HTTP, both paths must take the same updates and refuse the same
// bodies with the same answers (status, body, headers), and a client that goes away mid-body changes nothing.
import http from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookPostPath } from '../../src/ingress/webhook-post.js';
import { MAX_UPDATE_DEPTH } from '../../src/pipeline/held-updates.js';
import { closeTestWebhooks, startTestWebhook, type TestWebhook } from '../support/test-webhook.js';

const SECRET = 'post_path_secret-0123456789';

afterEach(closeTestWebhooks);

function startWebhook(): Promise<TestWebhook> {
  return startTestWebhook({
    secret: SECRET,
    maxBodyBytes: 4096,
    connections: { headerTimeoutMs: 2000, bodyTimeoutMs: 2000, idleTimeoutMs: 5000, limit: 50 },
  });
}

interface Answer {
  status: number;
  type: string | undefined;
  retryAfter: string | undefined;
  body: string;
}

/** POSTs `body` with a Content-Length, or chunked (no length: Fastify reads it). */
function post(port: number, body: string, { chunked = false, type = 'application/json', secret = SECRET } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': type, 'x-telegram-bot-api-secret-token': secret };
    if (!chunked) headers['content-length'] = Buffer.byteLength(body);
    const request = http.request({ host: '127.0.0.1', port, path: '/hook', method: 'POST', headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, type: response.headers['content-type'], retryAfter: response.headers['retry-after'], body: text }),
      );
    });
    request.on('error', reject);
    if (chunked) {
      // Two writes, so it really goes out in chunks.
      request.write(body.slice(0, 1));
      request.end(body.slice(1));
    } else request.end(body);
  });
}

const update = (id: number) => JSON.stringify({ update_id: id, message: { message_id: id, date: 0, chat: { id: 1, type: 'private' }, text: `t${id}` } });

describe('the webhook POST, with a declared length and chunked', () => {
  it('takes an update either way, with or without a charset', async () => {
    const { port, handled } = await startWebhook();
    expect((await post(port, update(1))).status).toBe(200);
    expect((await post(port, update(2), { chunked: true })).status).toBe(200);
    expect((await post(port, update(3), { type: 'application/json; charset=utf-8' })).status).toBe(200);
    // A byte-order mark before the JSON is dropped on both paths; a word like "proto" in a text is only a word.
    expect((await post(port, `\ufeff${update(4)}`)).status).toBe(200);
    expect((await post(port, `\ufeff${update(5)}`, { chunked: true })).status).toBe(200);
    const words = JSON.stringify({ update_id: 6, message: { message_id: 6, date: 0, chat: { id: 1, type: 'private' }, text: 'proto constructor' } });
    expect((await post(port, words)).status).toBe(200);
    expect(handled.sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses each body that is not an update with the same answer on both paths, and handles none', async () => {
    const { port, handled, metrics } = await startWebhook();
    const cases: Array<[string, number, RegExp]> = [
      ['{"update_id": 1,', 400, /^Body is not valid JSON/],
      ['{"update_id": 2, "__proto__": {"x": 1}}', 400, /^Body is not valid JSON/],
      ['{"update_id": 2, "\\u005f_proto__": {"x": 1}}', 400, /^Body is not valid JSON/],
      ['{"update_id": 2, "message": {"constructor": {"prototype": {"x": 1}}}}', 400, /^Body is not valid JSON/],
      ['{"update_id": "3"}', 400, /^invalid update: body\/update_id must be integer$/],
      ['[4]', 400, /^invalid update: body must be object$/],
      ['{"update_id": 5, "message": {"message_id": 5, "date": 0}}', 400, /^invalid update: body\/message must have required property 'chat'$/],
    ];
    for (const [body, status, error] of cases) {
      const direct = await post(port, body);
      const chunked = await post(port, body, { chunked: true });
      expect(direct, body).toEqual(chunked);
      expect(direct.status, body).toBe(status);
      expect(direct.type).toBe('application/json; charset=utf-8');
      expect((JSON.parse(direct.body) as { ok: boolean; error: string }).error).toMatch(error);
    }
    expect(handled).toEqual([]);
    expect((await metrics.render()).body).toMatch(/hearsay_errors_total\{kind="webhook_invalid"\} 14\b/);
  });

  it('refuses an update nested deeper than the inbox could keep on both paths, and takes one just within the limit', async () => {
    const { port, handled } = await startWebhook();
    // A value inside n arrays, in the update's text: the shortest text that nesting can take.
    const nestedIn = (id: number, n: number) => update(id).replace(/}$/, `, "extra": ${'['.repeat(n)}0${']'.repeat(n)}}`);
    for (const chunked of [false, true]) {
      const deep = await post(port, nestedIn(chunked ? 11 : 10, MAX_UPDATE_DEPTH + 1), { chunked });
      expect(deep.status).toBe(400);
      expect(JSON.parse(deep.body)).toEqual({ ok: false, error: 'update cannot be stored (nested too deeply)' });
      expect((await post(port, nestedIn(chunked ? 13 : 12, MAX_UPDATE_DEPTH - 1), { chunked })).status).toBe(200);
    }
    expect(handled.sort()).toEqual([12, 13]);
  });

  it('leaves to Fastify what the quick path does not read: a wrong secret, an empty body, another type, a body over the limit', async () => {
    const { port, handled } = await startWebhook();
    const wrong = await post(port, update(1), { secret: 'not-the-secret-at-all' });
    expect(wrong.status).toBe(401);
    expect((await post(port, '')).status).toBe(400);
    expect((await post(port, update(2), { type: 'text/plain' })).status).toBe(415);
    const big = await post(port, JSON.stringify({ update_id: 3, pad: 'x'.repeat(5000) }));
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toEqual({ ok: false, error: 'body larger than 4096 bytes' });
    expect(handled).toEqual([]);
  });

  it('drops a request whose client goes away mid-body and goes on serving', async () => {
    const { port, handled } = await startWebhook();
    const body = update(7);
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Telegram-Bot-Api-Secret-Token: ${SECRET}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    expect((await post(port, update(8))).status).toBe(200);
    expect(handled).toEqual([8]);
  });
});

describe('which requests the quick path takes', () => {
  it('takes the update POST with a declared length and the right secret; hands everything else on unread', async () => {
    const received: unknown[] = [];
    let closing = false;
    const take = createWebhookPostPath({
      path: '/hook',
      maxBodyBytes: 4096,
      admits: (request) => !closing && request.headers['x-telegram-bot-api-secret-token'] === SECRET,
      receive: (value) => {
        received.push(value);
        return Promise.resolve({ status: 200 });
      },
      invalid: (problem) => ({ status: 400, error: problem.message }),
      failed: () => ({ status: 500, error: 'internal error' }),
    });
    // The fallback stands for Fastify: it reads the body itself, so a request handed on must arrive whole.
    const handedOn: string[] = [];
    const server = http.createServer((request, response) => {
      if (take(request, response)) return;
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        handedOn.push(body);
        response.writeHead(299).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      expect((await post(port, update(1))).status).toBe(200);
      expect(received).toEqual([JSON.parse(update(1))]);
      const handOn = [
        post(port, update(2), { chunked: true }),
        post(port, update(3), { type: 'text/plain' }),
        post(port, update(4), { secret: 'wrong-secret-0123456789' }),
        post(port, JSON.stringify({ update_id: 5, pad: 'x'.repeat(5000) })),
      ];
      expect((await Promise.all(handOn)).map((answer) => answer.status)).toEqual([299, 299, 299, 299]);
      closing = true;
      expect((await post(port, update(6))).status).toBe(299);
      expect(handedOn.map((body) => (JSON.parse(body) as { update_id: number }).update_id).sort()).toEqual([2, 3, 4, 5, 6]);
      expect(received).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a failure nobody expected on the quick path', () => {
  it('answers 500 without details, whether handing on rejects or throws, and the server goes on', async () => {
    let mode: 'reject' | 'throw' | 'ok' = 'reject';
    const failures: unknown[] = [];
    const take = createWebhookPostPath({
      path: '/hook',
      maxBodyBytes: 4096,
      admits: () => true,
      receive: () => {
        if (mode === 'throw') throw new Error('a bug, thrown');
        return mode === 'reject' ? Promise.reject(new Error('a bug, rejected')) : Promise.resolve({ status: 200 });
      },
      invalid: (problem) => ({ status: 400, error: problem.message }),
      failed: (error) => {
        failures.push(error);
        return { status: 500, error: 'internal error' };
      },
    });
    const server = http.createServer((request, response) => void take(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const rejected = await post(port, update(1));
      expect(rejected.status).toBe(500);
      expect(JSON.parse(rejected.body)).toEqual({ ok: false, error: 'internal error' });
      mode = 'throw';
      expect((await post(port, update(2))).status).toBe(500);
      mode = 'ok';
      expect((await post(port, update(3))).status).toBe(200);
      expect(failures.map((error) => (error as Error).message)).toEqual(['a bug, rejected', 'a bug, thrown']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
