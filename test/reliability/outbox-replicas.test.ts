// Three replicas of one bot on one Redis, and 200 effects that all come due at the same second: each is
// performed once, by one replica, and those of one chat in their order — the claim is the replicas' only
// coordination. (The effects are put in the store directly, as a rule's `send` or a reminder would commit them.)
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { freePort, startRun, versionedRules, writeRules, type RunProcess } from '../e2e/run-process.js';
import { createLogger } from '../../src/log/logger.js';
import type { NewEffect } from '../../src/pipeline/outbox-port.js';
import { connectRedis } from '../../src/store/redis/redis-connection.js';
import { botKeyPrefix, RedisLedger } from '../../src/store/redis/redis-ledger.js';
import { redisForSuite, redisStoreConfig } from '../support/redis-server.js';
import { createBotViaAssistant, createGroup } from '../support/sandbox-harness.js';

const STAFF = { id: 9101, first_name: 'Sam' };

describe('outbox effects across three replicas', () => {
  const { sandbox, running } = sandboxAndRuns();
  const redis = redisForSuite();

  it('200 effects due at the same second: each performed once, by one replica, each chat in order', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9100, name: 'Many', username: 'many_replicas_outbox_bot' });
    const groups = [
      await createGroup(sandbox.baseUrl, { title: 'A', members: [STAFF], bots: [bot.username] }),
      await createGroup(sandbox.baseUrl, { title: 'B', members: [STAFF], bots: [bot.username] }),
    ];
    const posts = new Map<number, string[]>(groups.map((g) => [g, []]));
    sandbox.sandbox.onBotApiCall(({ bot: caller, method, params, ok }) => {
      if (caller.toLowerCase() === bot.username && method === 'sendmessage' && ok) posts.get(Number(params.chat_id))?.push(String(params.text));
    });

    const rules = await writeRules(versionedRules('v1'));
    const runs: RunProcess[] = [];
    const admins: number[] = [];
    for (let i = 0; i < 3; i++) {
      admins.push(await freePort());
      const run = startRun({
        env: {
          BOT_TOKEN: bot.token,
          BASE_URL: sandbox.baseUrl,
          HEARSAY_RULES: rules.dir,
          HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-outbox-replica-')),
          HEARSAY_RATE_LIMITS_ENABLED: 'false',
          HEARSAY_POLLING_TIMEOUT: '1',
          HEARSAY_STORE: redis.server.url,
          // Each replica claims at most this many due effects at a time: well under the 200, so that they spread
          // over the replicas (the Redis store's default, 64, lets a fast one take most of them before the others poll).
          HEARSAY_DELIVERY_CONCURRENCY: '32',
          HEARSAY_LOG_LEVEL: 'info',
          HEARSAY_ADMIN_LISTEN: `127.0.0.1:${admins[i]}`,
        },
      });
      running.push(run);
      runs.push(run);
    }
    await Promise.all(runs.map((run) => run.waitForLine(/hearsay is running/, 20_000)));

    // Half of them to group A in one order key (one after another, in order), half to group B without one (at once, anywhere).
    const due = Date.now() + 3000;
    const effects: NewEffect[] = Array.from({ length: 200 }, (_, i) => {
      const chat = groups[i % 2]!;
      return {
        id: `seed.${i}`,
        kind: 'message',
        payload: { method: 'sendmessage', params: { chat_id: chat, text: `due ${i}` } },
        dueAt: due,
        ...(i % 2 === 0 ? { orderKey: `chat:${chat}` } : {}),
      };
    });
    const logger = createLogger({ level: 'silent' });
    const connection = await connectRedis({
      config: redisStoreConfig(redis.server),
      logger,
    });
    const seeder = await RedisLedger.open({ connection, prefix: botKeyPrefix(Number(bot.token.split(':')[0])), logger, inbox: false, maintenance: true });
    await seeder.commitState({ scope: { chatId: null, userId: null }, changes: [], effects });
    await seeder.close();

    const all = () => [...posts.values()].flat();
    await expect.poll(() => all().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(200);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(all()).toHaveLength(200);
    expect(new Set(all()).size).toBe(200);
    // The ordered chat got its effects in their order.
    expect(posts.get(groups[0]!)).toEqual(Array.from({ length: 100 }, (_, i) => `due ${i * 2}`));
    expect([...posts.get(groups[1]!)!].sort()).toEqual(Array.from({ length: 100 }, (_, i) => `due ${i * 2 + 1}`).sort());
    // Every replica counted what it performed: 200 in all, spread over more than one of them.
    const done = await Promise.all(
      admins.map(async (port) => {
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        return Number(/^hearsay_effects_total\{kind="message",outcome="done"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
      }),
    );
    expect(done.reduce((a, b) => a + b, 0)).toBe(200);
    expect(done.filter((n) => n > 0).length).toBeGreaterThan(1);
  }, 120_000);
});
