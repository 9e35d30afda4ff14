// The backend client over real HTTP, against a local server this test starts on 127.0.0.1: a JSON answer, a
// 404, a 500 retried with the same Idempotency-Key, a timeout, a slow body, a huge body, bad JSON, a type that is
// neither JSON nor text, redirects (followed on the same origin, refused across hosts), a path a value would
// leave, and the circuit breaker opening and closing again — with the metrics and one log line per failed call
// that never shows the filled-in path or a header's secret.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Update } from '../../src/api/types.js';
import { Backends } from '../../src/backends/backends.js';
import type { BackendSettings } from '../../src/config/types.js';
import type { BackendRequest } from '../../src/engine/backend-calls.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import type { StoredEffect } from '../../src/pipeline/outbox-port.js';
import { recordCapture } from '../support/log-capture.js';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP server whose answers the test sets per path, keeping every request it sees. */
async function startServer(): Promise<{ server: Server; url: string; seen: Seen[]; routes: Map<string, Handler> }> {
  const seen: Seen[] = [];
  const routes = new Map<string, Handler>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const handler = routes.get(request.url!.split('?')[0]!) ?? ((_, res) => res.writeHead(404).end());
      handler(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, routes };
}

const json =
  (status: number, value: unknown, headers: Record<string, string> = {}): Handler =>
  (_, response) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));

const UPDATE = { update_id: 77, message: { message_id: 5, date: 1, chat: { id: 42, type: 'private' }, text: 'x' } } as unknown as Update;
const SECRET = 'sk_live_0123456789abcdef';

describe('backends over real HTTP', () => {
  let shop: Awaited<ReturnType<typeof startServer>>;
  let elsewhere: Awaited<ReturnType<typeof startServer>>;
  let metrics: ServiceMetrics;
  let log: ReturnType<typeof recordCapture>;
  let backends: Backends;
  const signal = new AbortController().signal;

  const settings = (overrides: Partial<BackendSettings> = {}): BackendSettings => ({
    name: 'shop',
    url: `${shop.url}/api`,
    headers: { Authorization: `Bearer ${SECRET}` },
    timeoutMs: 300,
    retries: 0,
    maxResponseBytes: 1024,
    circuitBreaker: { failures: 100, coolDownMs: 30_000 },
    giveUpAfterMs: 86_400_000,
    ...overrides,
  });
  const open = async (overrides: Partial<BackendSettings> = {}) => {
    const secrets = new Secrets();
    secrets.add(`Bearer ${SECRET}`);
    log = recordCapture();
    metrics = new ServiceMetrics({ processMetrics: false });
    backends = await Backends.open({
      settings: { shop: settings(overrides) },
      callKey: ({ update, index }) => `key-${update.update_id}-${index}`,
      effectKey: (id) => `effect-${id}`,
      metrics,
      logger: createLogger({ level: 'info', destination: log.destination, secrets }),
    });
  };
  const get = (path: string, template = path): BackendRequest => ({ backend: 'shop', method: 'GET', path, template });
  const call = (request: BackendRequest, index = 0) => backends.call(request, { update: UPDATE, index }, signal);

  beforeAll(async () => {
    shop = await startServer();
    elsewhere = await startServer();
  });
  afterAll(async () => {
    await backends?.close();
    shop.server.closeAllConnections();
    elsewhere.server.closeAllConnections();
    await new Promise((resolve) => shop.server.close(resolve));
    await new Promise((resolve) => elsewhere.server.close(resolve));
  });
  beforeEach(async () => {
    await backends?.close();
    shop.seen.length = 0;
    shop.routes.clear();
    await open();
  });

  it('gets a JSON answer at the base path plus the rendered path, with the headers, and no key for a GET', async () => {
    shop.routes.set('/api/orders/4711', json(200, { status: 'shipped', eta: 'Friday' }));
    expect(await call(get('/orders/4711'))).toEqual({ status: 200, body: { status: 'shipped', eta: 'Friday' } });
    expect(shop.seen[0]).toMatchObject({ method: 'GET', url: '/api/orders/4711' });
    expect(shop.seen[0]!.headers).toMatchObject({ authorization: `Bearer ${SECRET}`, accept: expect.stringContaining('application/json') });
    expect(shop.seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('reads a text answer as text, an empty one as nothing, and a 404 as its status', async () => {
    shop.routes.set('/api/t', (_, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('plain words'));
    shop.routes.set('/api/empty', (_, res) => res.writeHead(204).end());
    expect(await call(get('/t'))).toEqual({ status: 200, body: 'plain words' });
    expect(await call(get('/empty'))).toEqual({ status: 204 });
    expect(await call(get('/orders/9999'))).toEqual({ status: 404 });
  });

  it('retries a 500 with the same Idempotency-Key on every attempt, and reports the last status', async () => {
    await open({ retries: 2 });
    shop.routes.set('/api/bookings', json(500, { error: 'down' }));
    const request: BackendRequest = { backend: 'shop', method: 'POST', path: '/bookings', template: '/bookings', body: { size: '4' } };
    expect(await call(request, 1)).toEqual({ status: 500, body: { error: 'down' } });
    expect(shop.seen.map((s) => [s.method, s.headers['idempotency-key'], s.headers['content-type'], s.body])).toEqual(
      Array(3).fill(['POST', 'key-77-1', 'application/json', '{"size":"4"}']),
    );
  });

  it('gives up an attempt that is not answered in time, or whose body trickles past it', async () => {
    shop.routes.set('/api/never', () => undefined);
    shop.routes.set('/api/slow', (_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
      setTimeout(() => res.end('1}'), 2000).unref();
    });
    expect(await call(get('/never'))).toEqual({ status: null, failure: 'timeout' });
    expect(await call(get('/slow'))).toEqual({ status: null, failure: 'timeout' });
  });

  it('refuses an answer over the size limit (declared or streamed), bad JSON, and a type that is neither JSON nor text', async () => {
    shop.routes.set('/api/big', json(200, { filler: 'x'.repeat(5000) }));
    shop.routes.set('/api/stream', (_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 10; i++) res.write(`"${'y'.repeat(200)}"`);
      res.end();
    });
    shop.routes.set('/api/bad', (_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status": shipped'));
    shop.routes.set('/api/png', (_, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50])));
    shop.routes.set('/api/bad404', (_, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('nope'));
    expect(await call(get('/big'))).toEqual({ status: 200, failure: 'too_large' });
    expect(await call(get('/stream'))).toEqual({ status: 200, failure: 'too_large' });
    expect(await call(get('/bad'))).toEqual({ status: 200, failure: 'bad_json' });
    expect(await call(get('/png'))).toEqual({ status: 200, failure: 'unsupported_type' });
    // A non-2xx is judged by its status alone.
    expect(await call(get('/bad404'))).toEqual({ status: 404 });
  });

  it('follows a redirect on the same origin, never one to another host', async () => {
    shop.routes.set('/api/old', (_, res) => res.writeHead(301, { location: '/api/new' }).end());
    shop.routes.set('/api/new', json(200, { moved: true }));
    shop.routes.set('/api/away', (_, res) => res.writeHead(302, { location: `${elsewhere.url}/steal` }).end());
    expect(await call(get('/old'))).toEqual({ status: 200, body: { moved: true } });
    expect(await call(get('/away'))).toEqual({ status: 302, failure: 'redirect' });
    expect(elsewhere.seen).toEqual([]);
  });

  it('never sends a path a value would take out of its segment', async () => {
    expect(await call(get('/orders/%2E%2E', '/orders/{{match.num}}'))).toEqual({ status: null, failure: 'bad_path' });
    expect(shop.seen).toEqual([]);
  });

  it('opens the circuit after `failures` errors in a row, fails fast for `cool_down`, and closes on the next success', async () => {
    await open({ circuitBreaker: { failures: 2, coolDownMs: 400 } });
    shop.routes.set('/api/flaky', (_, res) => res.writeHead(503).end());
    expect(await call(get('/flaky'))).toEqual({ status: 503 });
    expect(await call(get('/flaky'))).toEqual({ status: 503 });
    expect(await call(get('/flaky'))).toEqual({ status: null, failure: 'circuit_open' });
    expect(shop.seen).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 450));
    shop.routes.set('/api/flaky', json(200, { back: true }));
    expect(await call(get('/flaky'))).toEqual({ status: 200, body: { back: true } });
    expect(await call(get('/flaky'))).toEqual({ status: 200, body: { back: true } });
    expect(shop.seen).toHaveLength(4);
    const text = (await metrics.render()).body;
    expect(text).toContain('hearsay_backend_requests_total{backend="shop",outcome="server_error"} 2');
    expect(text).toContain('hearsay_backend_requests_total{backend="shop",outcome="circuit_open"} 1');
    expect(text).toContain('hearsay_backend_requests_total{backend="shop",outcome="ok"} 2');
    expect(text).toContain('hearsay_backend_request_duration_seconds_count{backend="shop"} 4');
    expect(log.lines.map((line) => line.msg)).toContain('backend circuit opened: calls fail at once for a while');
    expect(log.lines.map((line) => line.msg)).toContain('backend circuit closed: it answers again');
  });

  it('logs a failed call with the backend, method, path template and outcome, never the filled path or a secret', async () => {
    shop.routes.set('/api/orders/secret-4711', json(500, {}));
    await call(get('/orders/secret-4711', '/orders/{{match.num}}'));
    const failed = log.lines.find((line) => line.msg === 'backend call failed');
    expect(failed).toMatchObject({ backend: 'shop', method: 'GET', path: '/orders/{{match.num}}', outcome: 'server_error', status: 500, attempts: 1 });
    const everything = JSON.stringify(log.lines) + (await metrics.render()).body;
    expect(everything).not.toContain('secret-4711');
    expect(everything).not.toContain(SECRET);
  });

  it("performs a notify once per attempt with the effect's key: done on 2xx, retried on 5xx or no answer, given up on a 4xx", async () => {
    const perform = backends.notifyPerformer();
    const effect = (path: string) =>
      ({
        id: 'u1.abc.0',
        kind: 'backend',
        payload: { backend: 'shop', method: 'POST', path, template: path, body: { event: 'x' } },
        dueAt: 0,
        attemptAt: 0,
        attempts: 0,
        inDoubt: false,
      }) as StoredEffect;
    shop.routes.set('/api/ok', (_, res) => res.writeHead(202, { 'content-type': 'application/octet-stream' }).end('ignored'));
    shop.routes.set('/api/down', json(503, {}, { 'retry-after': '7' }));
    shop.routes.set('/api/refused', json(422, { error: 'bad' }));
    expect(await perform(effect('/ok'), signal)).toEqual({ outcome: 'done' });
    expect(await perform(effect('/down'), signal)).toEqual({ outcome: 'retry', reason: 'server_error (503)', retryAfterMs: 7000 });
    expect(await perform(effect('/refused'), signal)).toEqual({ outcome: 'failed', reason: 'client_error (422)' });
    expect(shop.seen.map((s) => s.headers['idempotency-key'])).toEqual(['effect-u1.abc.0', 'effect-u1.abc.0', 'effect-u1.abc.0']);
  });
});
