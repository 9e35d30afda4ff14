import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import type { SetWebhookParams, Update } from '../../src/api/types.js';
import { WebhookIngress } from '../../src/ingress/webhook.js';
import { createLogger } from '../../src/log/logger.js';
import { recordCapture } from '../support/log-capture.js';
import { HealthState } from '../../src/ops/health.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { FakeBotApi } from '../delivery/fake-bot-api.js';
import { testPipeline } from '../support/test-pipeline.js';

const logger = createLogger({ level: 'silent' });
const SECRET = 'unit_secret-0123456789';
const update = (id: number, chat = 1): Update =>
  ({ update_id: id, message: { message_id: id, date: 0, chat: { id: chat, type: 'private', first_name: 'U' }, text: `t${id}` } }) as Update;

class RecordingApi extends FakeBotApi {
  webhook: SetWebhookParams | undefined;
  override async setWebhook(params: SetWebhookParams): Promise<true> {
    this.webhook = params;
    return true;
  }
}

const started: WebhookIngress[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((w) => w.close()));
});

async function startWebhook(
  handler: (u: Update, signal: AbortSignal) => Promise<void>,
  {
    maxPending = 100,
    holdMs = 60_000,
    tls = null,
    log = logger,
  }: { maxPending?: number; holdMs?: number; tls?: { certPath: string; keyPath: string } | null; log?: typeof logger } = {},
) {
  const api = new RecordingApi();
  const { pipeline, sequencer, committed, dir } = testPipeline({ perform: handler, maxPending, holdMs });
  const webhook = new WebhookIngress({
    api,
    pipeline,
    logger: log,
    metrics: new ServiceMetrics({ processMetrics: false }),
    health: new HealthState('webhook'),
    publicUrl: 'https://bot.example.com/hook',
    listen: { host: '127.0.0.1', port: 0 },
    path: '/hook',
    secret: SECRET,
    tls,
    maxBodyBytes: 4096,
    maxConnections: 7,
    connections: { headerTimeoutMs: 10_000, bodyTimeoutMs: 10_000, idleTimeoutMs: 30_000, limit: 100 },
  });
  await webhook.start();
  started.push(webhook);
  const post = (body: unknown) =>
    fetch(`${webhook.address}/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
      body: JSON.stringify(body),
    });
  const inbox = () => readFile(join(dir, 'webhook.inbox'), 'utf8');
  return { api, webhook, sequencer, committed, inbox, post };
}

describe('WebhookIngress', () => {
  it('registers the public URL with the secret, holds the request while its update is handled and answers 200 once it is committed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered = false;
    const { api, committed, inbox, post } = await startWebhook(async () => {
      entered = true;
      await held;
    });
    expect(api.webhook).toEqual({
      url: 'https://bot.example.com/hook',
      secret_token: SECRET,
      max_connections: 7,
      allowed_updates: ['message', 'callback_query'],
    });
    let committedAtAnswer: number[] | undefined;
    const answer = post(update(1)).then((response) => {
      committedAtAnswer = [...committed];
      return response;
    });
    await expect.poll(() => entered).toBe(true);
    release();
    expect((await answer).status).toBe(200);
    // The 200 came only once the update was done: the service kept the queue, and nothing went through the inbox.
    expect(committedAtAnswer).toEqual([1]);
    expect(await inbox()).toBe('');
  });

  it('asks for other update kinds with setwebhook again, same URL and secret (rules that answer member events need chat_member)', async () => {
    const { api, webhook } = await startWebhook(async () => undefined);
    await webhook.changeAllowedUpdates(['message', 'callback_query', 'chat_member']);
    expect(api.webhook).toEqual({
      url: 'https://bot.example.com/hook',
      secret_token: SECRET,
      max_connections: 7,
      allowed_updates: ['message', 'callback_query', 'chat_member'],
    });
  });

  it('stores an update whose handling outlasts the hold in the inbox, answers 200, and handles it once', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const handled: number[] = [];
    const { committed, inbox, post } = await startWebhook(
      async (u) => {
        await held;
        handled.push(u.update_id);
      },
      { holdMs: 50 },
    );
    expect((await post(update(5))).status).toBe(200);
    expect(committed).toEqual([]); // answered while the handler still waits: acknowledged because it is on disk
    expect(await inbox()).toContain('a {"update_id":5,');
    expect((await post(update(5))).status).toBe(200); // redelivered while in flight
    release();
    await expect.poll(() => committed).toEqual([5]);
    expect((await post(update(5))).status).toBe(200); // redelivered after it was handled
    // A later update of the same chat is handled after anything queued before it: once it is, 5 was not again.
    expect((await post(update(6))).status).toBe(200);
    await expect.poll(() => handled).toEqual([5, 6]);
    await expect.poll(inbox).toMatch(/^a .*\nf 5\n$/);
  });

  it('answers a redelivery of a held update together with the first delivery, and handles it once', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const handled: number[] = [];
    let entered = false;
    const { post } = await startWebhook(async (u) => {
      entered = true;
      await held;
      handled.push(u.update_id);
    });
    const first = post(update(7));
    await expect.poll(() => entered).toBe(true);
    const again = post(update(7));
    release();
    expect([(await first).status, (await again).status]).toEqual([200, 200]);
    expect(handled).toEqual([7]);
  });

  it('answers 503 for a held update that a stop cuts short, and keeps nothing of it', async () => {
    let entered = false;
    const { post, sequencer, inbox, committed } = await startWebhook(
      (_u, signal) =>
        new Promise((_resolve, reject) => {
          entered = true;
          signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
        }),
    );
    const answer = post(update(8));
    await expect.poll(() => entered).toBe(true);
    sequencer.abort();
    const response = await answer;
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(committed).toEqual([]);
    expect(await inbox()).toBe(''); // never acknowledged, so never kept: the service sends it again
  });

  it('answers 503 with Retry-After when too many updates are in flight, and while closing', async () => {
    const { post, webhook, sequencer } = await startWebhook((_u, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve())), {
      maxPending: 1,
      holdMs: 50,
    });
    expect((await post(update(1))).status).toBe(200);
    const overloaded = await post(update(2, 2));
    expect(overloaded.status).toBe(503);
    expect(overloaded.headers.get('retry-after')).toBe('1');
    webhook.stopAccepting();
    const closing = await post(update(3, 3));
    expect(closing.status).toBe(503);
    expect(closing.headers.get('retry-after')).toBe('1');
    sequencer.abort();
  });

  it('warns of refusals for overload once, not for each refused POST, and counts each in the metrics', async () => {
    const { destination, lines } = recordCapture();
    const { post, webhook, sequencer } = await startWebhook((_u, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve())), {
      maxPending: 1,
      holdMs: 50,
      log: createLogger({ level: 'info', destination, pretty: false }),
    });
    expect((await post(update(1))).status).toBe(200);
    for (let i = 2; i <= 6; i++) expect((await post(update(i, i))).status).toBe(503);
    const warnings = lines.filter((line) => String(line.msg).startsWith('too many updates in flight'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, refused: 1, in_flight: 1 });
    expect(await (await fetch(`${webhook.address}/metrics`)).text()).toMatch(/^hearsay_errors_total\{kind="webhook_overloaded"\} 5$/m);
    sequencer.abort();
  });

  it('serves /healthz and /metrics on the same server', async () => {
    const { webhook } = await startWebhook(async () => undefined);
    const health = await fetch(`${webhook.address}/healthz`);
    expect(health.status).toBe(503); // this bare ingress has no rules loaded
    expect(await health.json()).toEqual({ status: 'unavailable', rules: null, last_api_call_ok: true, mode: 'webhook' });
    expect(await (await fetch(`${webhook.address}/metrics`)).text()).toContain('hearsay_updates_received_total');
  });

  it('serves HTTPS directly when given a certificate and key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearsay-tls-'));
    try {
      const certPath = join(dir, 'cert.pem');
      const keyPath = join(dir, 'key.pem');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          keyPath,
          '-out',
          certPath,
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      const handled: number[] = [];
      const { webhook } = await startWebhook(async (u) => void handled.push(u.update_id), { tls: { certPath, keyPath } });
      expect(webhook.address).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const agent = new Agent({ connect: { ca: await readFile(certPath) } });
      const response = await undiciFetch(`${webhook.address}/hook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
        body: JSON.stringify(update(9)),
        dispatcher: agent,
      });
      expect(response.status).toBe(200);
      await expect.poll(() => handled).toEqual([9]);
      await agent.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
