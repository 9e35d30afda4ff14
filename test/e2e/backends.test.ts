// The order-status bot through the whole service, against the sandbox and a shop backend on a local HTTP
// server: the answer depends on what the shop says (found, 404, down), a slow shop shows "typing…" and does not
// hold up other chats (even with one chat at a time), a booking POST carries the update's Idempotency-Key, a
// notify arrives through the outbox, and neither the token of the shop nor a user's order number reaches the log.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { lineCapture } from '../support/log-capture.js';
import { createBotViaAssistant, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';

const RULES = `
rules:
  - id: order-status
    pattern: 'order\\s*#?\\s*(?<num>\\d{3,10})'
    call: { backend: shop, get: "/orders/{{match.num}}" }
    on:
      ok:    { reply: "Order {{match.num}}: {{result.status}}, expected {{result.eta}}." }   # any 2xx
      404:   { reply: "I can't find order {{match.num}}. Check the number on your receipt?" }
      error: { reply: "Our shop system isn't answering right now; please try again in a few minutes." }  # timeout, network, 5xx, bad JSON, open circuit
  - id: reserve
    pattern: '^reserve (?<sku>\\w+)$'
    call: { backend: shop, post: "/reservations", body: { sku: "{{match.sku}}", user: "{{user.id}}" } }
    on:
      ok: { reply: "Reserved as {{result.reference}}." }
      error: { reply: "Could not reserve it." }
  - id: hello
    text: hello
    reply: "Hello!"
    notify: { backend: crm, post: "/events", body: { event: hello, user: "{{user.id}}" } }
`;
const SHOP_TOKEN = 'shop_tok_9f8e7d6c5b4a';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('a bot that asks its backend', () => {
  let sandbox: StartedSandbox;
  let shop: Server;
  const seen: Seen[] = [];
  let answer: (request: Seen, response: ServerResponse) => void;
  let running: RunningService | undefined;
  let lines: string[];
  let counter = 0;

  beforeAll(async () => {
    sandbox = await startSandbox();
    shop = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const entry = { method: request.method!, url: request.url!, headers: request.headers, body };
        seen.push(entry);
        answer(entry, response);
      });
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    seen.length = 0;
  });
  afterAll(async () => {
    shop.closeAllConnections();
    await new Promise((resolve) => shop.close(resolve));
    await sandbox.close();
  });

  async function start(env: Record<string, string> = {}) {
    counter += 1;
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 7000 + counter, name: 'Shop', username: `shop_${counter}_bot` });
    const dir = await mkdtemp(join(tmpdir(), 'hearsay-backends-e2e-'));
    const url = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    await mkdir(join(dir, 'rules'));
    await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
    await writeFile(
      join(dir, 'hearsay.yaml'),
      `rules: rules\nbackends:\n  shop:\n    url: ${url}/api\n    headers: { Authorization: "Bearer \${SHOP_TOKEN}" }\n    timeout: 3s\n  crm:\n    url: ${url}/crm\n`,
    );
    const secrets = new Secrets();
    const config = await loadConfig({
      cwd: dir,
      env: {
        BOT_TOKEN: bot.token,
        BASE_URL: sandbox.baseUrl,
        SHOP_TOKEN,
        HEARSAY_DATA_DIR: join(dir, 'data'),
        HEARSAY_POLLING_TIMEOUT: '1',
        HEARSAY_LOG_LEVEL: 'debug',
        ...env,
      },
      secrets,
    });
    const capture = lineCapture();
    lines = capture.lines;
    running = await startService(config, { logger: createLogger({ level: 'debug', destination: capture.destination, secrets }) });
    return bot;
  }

  async function ask(bot: { username: string }, userId: number, text: string): Promise<string> {
    const sent = await sendAsUser(sandbox.baseUrl, userId, bot.username, text);
    const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId, bot: bot.username, after: sent.message_id, timeoutMs: 10_000 });
    return reply!.text!;
  }

  it('answers from what the shop says: found, not found, down', async () => {
    answer = (request, response) => {
      if (request.url === '/api/orders/4711') return response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"shipped","eta":"Friday"}');
      if (request.url === '/api/orders/5000') return response.writeHead(500).end();
      response.writeHead(404).end();
    };
    const bot = await start();
    expect(await ask(bot, 101, 'where is order 4711?')).toBe('Order 4711: shipped, expected Friday.');
    expect(await ask(bot, 101, 'order #9999')).toBe("I can't find order 9999. Check the number on your receipt?");
    expect(await ask(bot, 101, 'order 5000')).toBe("Our shop system isn't answering right now; please try again in a few minutes.");
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /api/orders/4711', 'GET /api/orders/9999', 'GET /api/orders/5000', 'GET /api/orders/5000']);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${SHOP_TOKEN}`);
    const metrics = (await running!.metrics.render()).body;
    expect(metrics).toContain('hearsay_backend_requests_total{backend="shop",outcome="ok"} 1');
    expect(metrics).toContain('hearsay_backend_requests_total{backend="shop",outcome="client_error"} 1');
    expect(metrics).toContain('hearsay_backend_requests_total{backend="shop",outcome="server_error"} 2');
    const failed = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'backend call failed');
    expect(failed).toMatchObject({ backend: 'shop', method: 'GET', path: '/orders/{{match.num}}', outcome: 'server_error', attempts: 2 });
    const log = lines.join('\n');
    expect(log).not.toContain(SHOP_TOKEN);
    expect(log).not.toContain('/orders/5000');
  }, 60_000);

  it('shows "typing…" while a slow shop is asked, and answers another chat meanwhile, one chat at a time', async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    answer = (request, response) => {
      void slow.then(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"packed","eta":"Monday"}'));
    };
    const bot = await start({ HEARSAY_DELIVERY_CONCURRENCY: '1' });
    const actions: Array<{ chat: number; action: string }> = [];
    const unsubscribe = sandbox.sandbox.onBotApiCall(({ bot: caller, method, params, ok }) => {
      if (caller.toLowerCase() === bot.username && method === 'sendchataction' && ok)
        actions.push({ chat: Number(params.chat_id), action: String(params.action) });
    });
    const waiting = ask(bot, 201, 'order 1234');
    // Another chat is answered while the first waits for the shop (which answers only once this one got its reply).
    expect(await ask(bot, 202, 'hello')).toBe('Hello!');
    await expect.poll(() => actions, { timeout: 5000 }).toContainEqual({ chat: 201, action: 'typing' });
    release();
    expect(await waiting).toBe('Order 1234: packed, expected Monday.');
    unsubscribe();
    expect(actions.every((a) => a.chat === 201)).toBe(true);
  }, 60_000);

  it("sends a POST with the update's Idempotency-Key, and a notify through the outbox with the effect's", async () => {
    answer = (request, response) => response.writeHead(201, { 'content-type': 'application/json' }).end('{"reference":"R-1"}');
    const bot = await start();
    expect(await ask(bot, 301, 'reserve cam42')).toBe('Reserved as R-1.');
    expect(await ask(bot, 301, 'hello')).toBe('Hello!');
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(2);
    const [reserve, notify] = seen;
    expect(reserve).toMatchObject({ method: 'POST', url: '/api/reservations', body: '{"sku":"cam42","user":"301"}' });
    expect(reserve!.headers['idempotency-key']).toMatch(new RegExp(`^hearsay-${bot.id}-u\\d+\\.[\\w-]{12}\\.c0$`));
    expect(notify).toMatchObject({ method: 'POST', url: '/crm/events', body: '{"event":"hello","user":"301"}' });
    expect(notify!.headers['idempotency-key']).toMatch(new RegExp(`^hearsay-${bot.id}-u\\d+\\.[\\w-]{12}\\.0$`));
  }, 60_000);
});
