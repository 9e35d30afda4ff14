import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { ApiError, ApiTimeoutError, HttpError, NetworkError, RequestAbortedError } from '../../src/api/errors.js';

const TOKEN = '42:wirewirewirewirewirewirewirewire';

/** A request the server holds until the test answers it; `closed` resolves if the client gives up on it first. */
interface Held {
  answer(): void;
  closed: Promise<void>;
}

/**
 * A Bot API stand-in for the wire's cases: sendmessage answers with its text at once, holds it when the text
 * starts with `hold:` (until the test answers), or plays the answer a case names (`chunks`, `html-503`, …).
 */
class WireServer {
  readonly server: Server = createServer((request, response) => this.route(request, response));
  readonly texts: string[] = [];
  private readonly held = new Map<string, Held>();
  private readonly waiting = new Map<string, (held: Held) => void>();
  baseUrl = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Resolves once the request `hold:<name>` has arrived. */
  received(name: string): Promise<Held> {
    const held = this.held.get(name);
    return held ? Promise.resolve(held) : new Promise((resolve) => this.waiting.set(name, resolve));
  }

  private route(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = String((JSON.parse(Buffer.concat(chunks).toString()) as { text?: string }).text);
      this.texts.push(text);
      if (text.startsWith('hold:')) this.hold(text.slice(5), response);
      else this.play(text, response);
    });
  }

  private hold(name: string, response: ServerResponse): void {
    const held: Held = {
      answer: () => sendJson(response, 200, { ok: true, result: { text: `hold:${name}` } }),
      closed: new Promise((resolve) => response.on('close', () => !response.writableFinished && resolve())),
    };
    this.held.set(name, held);
    this.waiting.get(name)?.(held);
  }

  private play(text: string, response: ServerResponse): void {
    if (text === 'chunks') return void writeInPieces(response, JSON.stringify({ ok: true, result: { text: '€'.repeat(200_000) } }));
    if (text === 'html-503') return void response.writeHead(503, { 'content-type': 'text/html' }).end(`<html>${'Service Unavailable '.repeat(20)}</html>`);
    if (text === 'empty-500') return void response.writeHead(500).end();
    if (text.startsWith('freeze:')) return answerThenFreeze(response, text, Number(text.slice(7)));
    if (text === 'not-envelope-500') return sendJson(response, 500, { error: 'boom' });
    if (text === '429-header') {
      response.setHeader('retry-after', '7');
      return sendJson(response, 429, { ok: false, error_code: 429, description: 'Too Many Requests' });
    }
    if (text === '429-both') {
      response.setHeader('retry-after', '7');
      return sendJson(response, 429, { ok: false, error_code: 429, description: 'Too Many Requests', parameters: { retry_after: 2 } });
    }
    if (text === 'cut') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write(`{"ok":true,"result":{"text":"${TOKEN}`);
      return void setImmediate(() => response.socket?.destroy());
    }
    sendJson(response, 200, { ok: true, result: { text } });
  }
}

function sendJson(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Answers, then holds the whole process (server and client alike) for `ms`: the answer waits on the client's socket
 * while the client's timeout passes, as after a long pause of the machine.
 */
function answerThenFreeze(response: ServerResponse, text: string, ms: number): void {
  sendJson(response, 200, { ok: true, result: { text } });
  for (const started = performance.now(); performance.now() - started < ms;);
}

/** Writes `body` as many small chunked-encoding pieces, each after the previous one has been handed to the socket. */
function writeInPieces(response: ServerResponse, body: string): void {
  const bytes = Buffer.from(body);
  response.writeHead(200, { 'content-type': 'application/json' });
  const writeFrom = (offset: number): void => {
    if (offset >= bytes.length) return void response.end();
    // 4,099 bytes: an odd size, so most pieces end inside a three-byte '€'.
    response.write(bytes.subarray(offset, offset + 4099), () => writeFrom(offset + 4099));
  };
  writeFrom(0);
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe('BotApiClient on the wire', () => {
  const server = new WireServer();
  const clients: BotApiClient[] = [];
  let client: BotApiClient;
  const connect = (timeoutMs: number): BotApiClient => {
    client = new BotApiClient({ baseUrl: server.baseUrl, token: TOKEN, timeoutMs });
    clients.push(client);
    return client;
  };
  const send = (text: string, options?: { signal?: AbortSignal; timeoutMs?: number }) => client.sendMessage({ chat_id: 1, text }, options);

  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => {
    connect(2000);
    return async () => {
      await Promise.all(clients.splice(0).map((each) => each.destroy()));
    };
  });

  it('a timeout among many calls ends only the call whose time is up; a later call in flight gets its answer', async () => {
    connect(600);
    const started = performance.now();
    const first = failureOf(send('hold:first'));
    const firstHeld = await server.received('first');
    // Calls that finish meanwhile, until the next call's deadline is well after the first one's.
    let quick = 0;
    while (performance.now() - started < 300) expect((await send(`quick ${++quick}`)).text).toBe(`quick ${quick}`);
    const second = send('hold:second');
    const secondHeld = await server.received('second');
    const error = await first;
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toMatchObject({ method: 'sendmessage', timeoutMs: 600 });
    await firstHeld.closed;
    secondHeld.answer();
    expect((await second).text).toBe('hold:second');
  });

  it('an answer that came in time is not taken for a timeout when the process was frozen past it', async () => {
    connect(150);
    expect((await send('freeze:400')).text).toBe('freeze:400');
    // A timeout of the call's own (its own timer, not the shared queue's) too.
    expect((await send('freeze:400', { timeoutMs: 100 })).text).toBe('freeze:400');
    // Each was sent once: nothing was retried or sent again.
    expect(server.texts.filter((text) => text === 'freeze:400')).toHaveLength(2);
    // A call whose answer does not come still times out.
    expect(await failureOf(send('hold:never'))).toMatchObject({ name: 'ApiTimeoutError', timeoutMs: 150 });
  });

  it('a call with a timeout of its own keeps it: a shorter shared timeout that fires meanwhile does not end it', async () => {
    connect(300);
    const own = send('hold:own', { timeoutMs: 10_000 });
    const ownHeld = await server.received('own');
    const ordinary = failureOf(send('hold:ordinary'));
    expect(await ordinary).toMatchObject({ name: 'ApiTimeoutError', timeoutMs: 300 });
    ownHeld.answer();
    expect((await own).text).toBe('hold:own');
  });

  it("the caller's signal ends a call in flight with RequestAbortedError and stops the request", async () => {
    const controller = new AbortController();
    const call = failureOf(send('hold:aborted', { signal: controller.signal }));
    const held = await server.received('aborted');
    controller.abort();
    expect(await call).toBeInstanceOf(RequestAbortedError);
    await held.closed;
    expect((await send('after the abort')).text).toBe('after the abort');
  });

  it("calls that ended leave no listener on the caller's signal", async () => {
    const controller = new AbortController();
    const texts = await Promise.all(['a', 'b', 'c'].map(async (text) => (await send(text, { signal: controller.signal })).text));
    expect(texts).toEqual(['a', 'b', 'c']);
    expect(await failureOf(send('empty-500', { signal: controller.signal }))).toBeInstanceOf(HttpError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('one signal shared by several calls in flight ends all of them, and none on another signal', async () => {
    const shared = new AbortController();
    const calls = ['one', 'two', 'three'].map((name) => failureOf(send(`hold:shared-${name}`, { signal: shared.signal })));
    const other = send('hold:other-signal', { signal: new AbortController().signal });
    const held = await Promise.all(['one', 'two', 'three', 'other-signal'].map((name) => server.received(name.startsWith('other') ? name : `shared-${name}`)));
    shared.abort();
    for (const error of await Promise.all(calls)) expect(error).toBeInstanceOf(RequestAbortedError);
    held[3]!.answer();
    expect((await other).text).toBe('hold:other-signal');
  });

  it('a call aborted while it waits for a free connection fails at once and is never sent', async () => {
    const busy = Array.from({ length: 16 }, (_, i) => send(`hold:busy${i}`));
    const held = await Promise.all(Array.from({ length: 16 }, (_, i) => server.received(`busy${i}`)));
    const controller = new AbortController();
    const queued = failureOf(send('queued', { signal: controller.signal }));
    controller.abort();
    expect(await queued).toBeInstanceOf(RequestAbortedError);
    for (const request of held) request.answer();
    expect((await Promise.all(busy)).map((message) => message.text)).toEqual(Array.from({ length: 16 }, (_, i) => `hold:busy${i}`));
    expect((await send('next')).text).toBe('next');
    expect(server.texts).not.toContain('queued');
  });

  it('an answer that arrives in many pieces, with characters split between them, is read whole', async () => {
    expect((await send('chunks')).text).toBe('€'.repeat(200_000));
  });

  it('a 5xx answer that is not JSON is HttpError with its status and the first 200 characters', async () => {
    const error = await failureOf(send('html-503'));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, bodySnippet: `<html>${'Service Unavailable '.repeat(20)}`.slice(0, 200) });
  });

  it('an empty 500 and a JSON 500 without the Bot API envelope are HttpError too', async () => {
    expect(await failureOf(send('empty-500'))).toMatchObject({ name: 'HttpError', status: 500, bodySnippet: '' });
    expect(await failureOf(send('not-envelope-500'))).toMatchObject({ name: 'HttpError', status: 500, bodySnippet: '{"error":"boom"}' });
  });

  it('a 429 takes retry_after from its envelope, else from the Retry-After header', async () => {
    const fromHeader = await failureOf(send('429-header'));
    expect(fromHeader).toBeInstanceOf(ApiError);
    expect(fromHeader).toMatchObject({ errorCode: 429, parameters: { retryAfter: 7 } });
    expect(await failureOf(send('429-both'))).toMatchObject({ errorCode: 429, parameters: { retryAfter: 2 } });
  });

  it('a connection cut in the middle of the answer is NetworkError, and what arrived never reaches the error', async () => {
    const error = await failureOf(send('cut'));
    expect(error).toBeInstanceOf(NetworkError);
    const printed = `${(error as Error).stack} ${String((error as Error).cause)} ${JSON.stringify(error)}`;
    expect(printed).not.toContain('wirewirewire');
  });

  it('close() lets an ordinary call in flight finish; destroy() ends one at once with NetworkError', async () => {
    const finishing = send('hold:finishing');
    const finishingHeld = await server.received('finishing');
    const closed = client.close();
    finishingHeld.answer();
    expect((await finishing).text).toBe('hold:finishing');
    await closed;

    connect(2000);
    const cut = failureOf(send('hold:destroyed'));
    await server.received('destroyed');
    await client.destroy();
    expect(await cut).toBeInstanceOf(NetworkError);
  });
});
