// Who may use the sandbox, over real HTTP: a request addressed to another name (DNS rebinding: a page's
// own host name that resolves to 127.0.0.1) is refused with 421, one a page of another origin sent with
// 403; the sandbox's own names (with or without a port), its own page's origin, and scripts and bot
// libraries (no Origin) are served, on every route: the page, the client API, the Bot API.
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { webChatPlugin } from '../../src/sandbox/web/plugin.js';
import { createLogger } from '../../src/log/logger.js';
import { lineCapture } from '../support/log-capture.js';
import { createBotViaAssistant } from '../support/sandbox-harness.js';

interface Answer {
  status: number;
  body: string;
}

/** One request with exactly these headers (fetch would not let a test choose Host). */
function call(baseUrl: string, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<Answer> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

const description = (answer: Answer) => (JSON.parse(answer.body) as { description: string }).description;

async function sandboxWithPage(host: string, logger?: ReturnType<typeof createLogger>): Promise<{ sandbox: Sandbox; baseUrl: string; port: string }> {
  const sandbox = await createSandbox(logger ? { logger } : {});
  await sandbox.app.register(webChatPlugin, { store: sandbox.store, onMessage: sandbox.onMessage });
  const listened = await sandbox.listen({ host, port: 0 });
  const baseUrl = listened.replace('0.0.0.0', '127.0.0.1');
  return { sandbox, baseUrl, port: new URL(baseUrl).port };
}

describe('the sandbox refuses web pages, and serves this machine', () => {
  let sandbox: Sandbox;
  let baseUrl: string;
  let port: string;
  let token: string;
  const { destination, lines } = lineCapture();

  beforeAll(async () => {
    ({ sandbox, baseUrl, port } = await sandboxWithPage('127.0.0.1', createLogger({ level: 'info', destination, pretty: false })));
    ({ token } = await createBotViaAssistant(baseUrl, { userId: 4001, name: 'Guarded', username: 'guarded_bot' }));
  });
  afterAll(() => sandbox.close());

  const send = (headers: Record<string, string>) =>
    call(baseUrl, '/client/send', headers, 'POST', JSON.stringify({ user: { id: 4001, first_name: 'Ann' }, to: 'BotMaker', text: '/mybots' }));

  it('refuses a Host that names another server with 421, on every route, and logs it once', async () => {
    for (const path of ['/', '/app.js', '/client/messages?user=4001&with=BotMaker', '/client/events?user=4001', `/bot${token}/getme`, '/nothing-here']) {
      const answer = await call(baseUrl, path, { host: `rebind.example:${port}` });
      expect(answer.status, path).toBe(421);
      expect(answer.body).not.toContain(token);
      expect(JSON.parse(answer.body)).toEqual({
        ok: false,
        error_code: 421,
        description: `Misdirected Request: the sandbox answers only to 127.0.0.1, localhost, [::1] (with any port), not to "rebind.example:${port}"; see "Who may use the sandbox" in docs/sandbox.md`,
      });
    }
    for (const host of ['rebind.example', 'localhost.rebind.example', '127.0.0.1.nip.io', 'evil@127.0.0.1', '127.0.0.2']) {
      expect((await call(baseUrl, '/client/bots', { host })).status, host).toBe(421);
    }
    expect((await send({ host: 'rebind.example' })).status).toBe(421);
    // Each refused name once, however often it comes.
    const logged = lines.filter((line) => line.includes('refused')).map((line) => JSON.parse(line) as { level: number; host: string; msg: string });
    expect(logged.map((line) => line.host)).toEqual([
      `rebind.example:${port}`,
      'rebind.example',
      'localhost.rebind.example',
      '127.0.0.1.nip.io',
      'evil@127.0.0.1',
      '127.0.0.2',
    ]);
    expect(logged[0]).toMatchObject({
      level: 40,
      msg: 'sandbox refused a request: it was addressed to another host name (a web page through DNS rebinding, or a proxy); see docs/sandbox.md',
    });
  });

  it('serves its own names, with or without a port, in any letter case', async () => {
    for (const host of [`127.0.0.1:${port}`, '127.0.0.1', `localhost:${port}`, 'LocalHost', `[::1]:${port}`, '[::1]', `localhost:1234`]) {
      const answer = await call(baseUrl, '/client/bots', { host });
      expect(answer.status, host).toBe(200);
    }
    expect((await call(baseUrl, `/bot${token}/getme`, { host: `127.0.0.1:${port}` })).status).toBe(200);
  });

  it("refuses a request from a page of another origin with 403, and serves its own page's and scripts' (no Origin)", async () => {
    const host = `127.0.0.1:${port}`;
    for (const origin of ['http://evil.example', `http://localhost:${port}`, 'http://127.0.0.1:3000', `https://127.0.0.1:${port}`, 'null', 'file://']) {
      const refused = await send({ host, origin });
      expect(refused.status, origin).toBe(403);
      expect(description(refused)).toBe(
        `Forbidden: requests from a web page of another origin (${JSON.stringify(origin)}) are refused; the sandbox's own page, scripts and bot libraries (no Origin header) are served`,
      );
      expect((await call(baseUrl, '/client/events?user=4001', { host, origin })).status).toBe(403);
      expect((await call(baseUrl, `/bot${token}/getme`, { host, origin })).status).toBe(403);
    }
    const logged = lines.filter((line) => line.includes('another origin')).map((line) => JSON.parse(line) as { level: number; origin: string; msg: string });
    expect(logged.map((line) => line.origin)).toEqual([
      'http://evil.example',
      `http://localhost:${port}`,
      'http://127.0.0.1:3000',
      `https://127.0.0.1:${port}`,
      'null',
      'file://',
    ]);
    expect(logged[0]).toMatchObject({ level: 40, msg: 'sandbox refused a request: a web page of another origin sent it; see docs/sandbox.md' });
    expect((await send({ host, origin: `http://${host}` })).status).toBe(200);
    expect((await send({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
    expect((await send({ host })).status).toBe(200);
    expect((await call(baseUrl, `/bot${token}/getme`, { host })).status).toBe(200);
  });
});

describe('the address the sandbox listens on', () => {
  it('is one of its names too (a --host other than the loopback names)', async () => {
    const { sandbox, baseUrl, port } = await sandboxWithPage('127.0.0.2');
    try {
      expect((await call(baseUrl, '/client/bots', { host: `127.0.0.2:${port}` })).status).toBe(200);
      expect((await call(baseUrl, '/client/bots', { host: `localhost:${port}` })).status).toBe(200);
      expect((await call(baseUrl, '/client/bots', { host: `127.0.0.3:${port}` })).status).toBe(421);
    } finally {
      await sandbox.close();
    }
  });

  it("is each of this machine's addresses when it listens on all of them (0.0.0.0)", async () => {
    const { sandbox, baseUrl, port } = await sandboxWithPage('0.0.0.0');
    try {
      const addresses = Object.values(networkInterfaces())
        .flatMap((entries) => entries ?? [])
        .filter((entry) => entry.family === 'IPv4')
        .map((entry) => entry.address);
      for (const address of addresses) expect((await call(baseUrl, '/client/bots', { host: `${address}:${port}` })).status, address).toBe(200);
      expect((await call(baseUrl, '/client/bots', { host: `rebind.example:${port}` })).status).toBe(421);
    } finally {
      await sandbox.close();
    }
  });
});
