// Hostile input at the webhook of a real `hearsay run` process: random, truncated, non-JSON, oversized and
// schema-violating bodies get 4xx (never a 500, never a crash), and a flood beyond what the engine can
// handle is refused with 503 + Retry-After while the process's memory stays bounded.
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotViaAssistant, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';
import { freePort, startRun, versionedRules, writeRules, type RunProcess } from '../e2e/run-process.js';

const SECRET = 'hostile_input-Secret_7';
const MAX_BODY = 16_384;

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)![1]);
}

describe('hostile webhook input', () => {
  let sandbox: StartedSandbox;
  let run: RunProcess;
  let url: string;
  let bot: { token: string; username: string };
  const agent = new Agent({ connections: 32, pipelining: 1 });

  const post = async (body: string | Buffer, headers: Record<string, string> = {}) => {
    const response = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET, ...headers },
      body,
    });
    const text = await response.body.text();
    return { status: response.statusCode, retryAfter: response.headers['retry-after'], text };
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ webhook: { retryBaseMs: 50, retryMaxMs: 300 } });
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 600, name: 'Hostile', username: 'hostile_input_bot' });
    const rules = await writeRules(versionedRules('v1'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}/hook`;
    run = startRun({
      env: {
        BOT_TOKEN: bot.token,
        BASE_URL: sandbox.baseUrl,
        HEARSAY_RULES: rules.dir,
        HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-hostile-')),
        HEARSAY_MODE: 'webhook',
        HEARSAY_WEBHOOK_URL: `http://127.0.0.1:${port}`,
        HEARSAY_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
        HEARSAY_WEBHOOK_SECRET: SECRET,
        HEARSAY_WEBHOOK_PATH: '/hook',
        HEARSAY_WEBHOOK_MAX_BODY_BYTES: String(MAX_BODY),
        HEARSAY_DELIVERY_MAX_PENDING: '50',
        HEARSAY_LOG_LEVEL: 'info',
      },
    });
    await run.waitForLine(/hearsay is running/, 15_000);
  });
  afterAll(async () => {
    await run?.stop('SIGKILL');
    await agent.close();
    await sandbox?.close();
  });

  const validUpdate = (id: number, chat: number, text = 'hi') =>
    JSON.stringify({
      update_id: id,
      message: { message_id: id, date: 1, chat: { id: chat, type: 'private' }, from: { id: chat, is_bot: false, first_name: 'A' }, text },
    });

  it('random bytes, random JSON and mutated updates never get a 500 or crash the server', async () => {
    const bodies = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      fc.json({ maxDepth: 4 }),
      fc.tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.nat()).map(([id, cut]) => {
        const text = validUpdate(id, 1);
        return text.slice(0, cut % text.length);
      }),
      fc
        .record({
          update_id: fc.oneof(fc.integer(), fc.string(), fc.double(), fc.constant(null)),
          message: fc.anything({ maxDepth: 3 }),
        })
        .map((value) => JSON.stringify(value)),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const { status } = await post(body);
        expect([200, 400, 413, 415, 503]).toContain(status);
      }),
      { numRuns: 300 },
    );
    expect(run.child.exitCode).toBeNull();
  });

  it('answers non-JSON and truncated JSON 400, schema violations 400, oversized 413', async () => {
    expect((await post('not json at all')).status).toBe(400);
    expect((await post(validUpdate(1, 1).slice(0, 30))).status).toBe(400);
    expect((await post(JSON.stringify({ update_id: -1 }))).status).toBe(400);
    expect((await post(JSON.stringify({ update_id: 1.5 }))).status).toBe(400);
    expect((await post(JSON.stringify({ update_id: 3, message: { message_id: 'x', date: 1, chat: { id: 1, type: 'private' } } }))).status).toBe(400);
    expect((await post(JSON.stringify([1, 2, 3]))).status).toBe(400);
    expect((await post(JSON.stringify({ update_id: 4, padding: 'x'.repeat(MAX_BODY) }))).status).toBe(413);
    expect(run.child.exitCode).toBeNull();
  });

  it('a flood beyond capacity gets 503 + Retry-After and memory stays bounded', async () => {
    // Replies hang, so handled updates pile up to delivery.max_pending (50) and the rest must be refused.
    await fetch(`${sandbox.baseUrl}/client/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bot: bot.username, method: 'sendmessage', count: 100_000, delay_ms: 20_000, status: 500 }),
    });
    const pid = run.child.pid!;
    const before = rssKb(pid);
    const padding = 'p'.repeat(8000);
    const statuses = new Map<number, number>();
    let retryAfterSeen = false;
    const total = 5000;
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < total) {
          const id = 1_000_000 + next++;
          const body = JSON.stringify({ ...JSON.parse(validUpdate(id, 1 + (id % 200), padding)) });
          const { status, retryAfter } = await post(body);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 503 && retryAfter) retryAfterSeen = true;
        }
      }),
    );
    const after = rssKb(pid);
    expect(statuses.get(200)).toBeLessThanOrEqual(60);
    expect(statuses.get(503)).toBeGreaterThanOrEqual(total - 60);
    expect([...statuses.keys()].every((s) => s === 200 || s === 503)).toBe(true);
    expect(retryAfterSeen).toBe(true);
    // 5,000 bodies of 8 KB are 40 MB; keeping them would show. Allow generous noise.
    expect(after - before).toBeLessThan(40_000);
    expect(run.child.exitCode).toBeNull();
    await fetch(`${sandbox.baseUrl}/client/faults`, { method: 'DELETE' });
  }, 60_000);
});
