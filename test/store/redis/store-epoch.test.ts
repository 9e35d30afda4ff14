// A Redis store that comes back without its data is noticed by every replica, never silently started over:
// three replicas on a real redis-server, each holding accepted updates in the shared inbox; the server is
// killed and started again with its AOF gone (or flushed while running). Each replica tells its listener once,
// with the updates the store held for it (the service's watch logs and counts it: test/service); a restart that
// kept its AOF is no loss; after every reconnect the server's persistence settings are checked again.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Update } from '../../../src/api/types.js';
import type { RedisStoreConfig } from '../../../src/config/store.js';
import { createLogger } from '../../../src/log/logger.js';
import { openRedisStore, type OpenedRedisStore } from '../../../src/store/redis/open-redis-store.js';
import { recordCapture } from '../../support/log-capture.js';
import { redisStoreConfig, startRedisServer, type RedisServer } from '../../support/redis-server.js';

const NOT_DURABLE = /does not write every change to disk/;

let server: RedisServer;
let bots = 0;
const opened: OpenedRedisStore[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await server?.close();
});

const config = (): RedisStoreConfig => redisStoreConfig(server);

const update = (id: number): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 1, chat: { id: id % 7, type: 'private', first_name: 'A' }, from: { id: 2, is_bot: false, first_name: 'A' }, text: 'x' },
  }) as Update;

/** One replica of bot `botId`, its log lines parsed, and every loss its listener was told of. */
async function replica(botId: number) {
  const { destination, lines } = recordCapture();
  const store = await openRedisStore({ config: config(), botId, inbox: true, logger: createLogger({ level: 'info', destination }) });
  opened.push(store);
  const losses: Array<readonly number[]> = [];
  store.shared.onDataLost((loss) => {
    expect(loss).toMatchObject({ store: server.url, since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    losses.push(loss.heldIds);
  });
  return { store, lines, losses, linesMatching: (pattern: RegExp) => lines.filter((line) => pattern.test(String(line.msg))) };
}

/** kill -9, and its data gone with its disk. */
async function restartEmpty(args: string[] = []): Promise<void> {
  await server.kill();
  rmSync(join(server.dir, 'appendonlydir'), { recursive: true, force: true });
  await server.start(args);
}

describe('a Redis store that lost its data', () => {
  it('is found by every replica, once each, with the updates the store held for it', async () => {
    const botId = 9000 + ++bots;
    const replicas = await Promise.all([replica(botId), replica(botId), replica(botId)]);
    // Each accepts some updates (webhook: 200 once stored); the first also commits one of its own.
    for (const [index, { store }] of replicas.entries()) {
      for (let i = 0; i <= index + 1; i++) await store.ledger.accept(update(100 * (index + 1) + i));
    }
    await replicas[0]!.store.ledger.commit(update(100), null);

    await restartEmpty();
    for (const r of replicas) await expect.poll(() => r.losses.length, { timeout: 15_000, interval: 50 }).toBe(1);
    expect(replicas.map((r) => r.losses)).toEqual([[[101]], [[200, 201, 202]], [[300, 301, 302, 303]]]);
    // One new epoch for all three, begun by exactly one of them: checking again finds nothing more.
    const admin = new Redis(server.url);
    expect(await admin.keys(`hearsay:{bot${botId}}:epoch`)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(replicas.map((r) => r.losses.length)).toEqual([1, 1, 1]);
    // The store works on: what is accepted now is held again, and a second loss says so.
    await replicas[1]!.store.ledger.accept(update(900));
    await admin.flushdb();
    admin.disconnect();
    // No reconnect this time: the periodic check finds it.
    await expect.poll(() => replicas[1]!.losses, { timeout: 15_000, interval: 100 }).toEqual([[200, 201, 202], [900]]);
    await expect.poll(() => replicas[0]!.losses, { timeout: 15_000, interval: 100 }).toEqual([[101], []]);
  }, 60_000);

  it('a restart that kept its AOF is no loss; every reconnect checks the persistence settings again', async () => {
    const botId = 9000 + ++bots;
    const r = await replica(botId);
    await r.store.ledger.accept(update(1));
    await server.kill();
    await server.start();
    await expect.poll(() => r.lines.filter((line) => /available again/.test(String(line.msg))).length, { timeout: 15_000, interval: 50 }).toBe(1);
    await r.store.ledger.accept(update(2));
    expect(r.losses).toEqual([]);
    expect(r.linesMatching(NOT_DURABLE)).toEqual([]);
    expect((await r.store.ledger.pending()).map((u) => u.update_id)).toEqual([1, 2]);

    // Started again without persistence (and so without its data): both are said.
    await restartEmpty(['--appendonly', 'no']);
    await expect.poll(() => r.linesMatching(NOT_DURABLE).length, { timeout: 15_000, interval: 50 }).toBe(1);
    expect(r.losses).toEqual([[1, 2]]);
    expect(r.linesMatching(NOT_DURABLE)[0]).toMatchObject({ level: 40, appendonly: 'no' });
    await server.kill();
    await server.start();
  }, 60_000);

  it('a replica that starts on an empty store says so at info level: it cannot tell a first start from data lost while none ran', async () => {
    const first = await replica(9000 + ++bots);
    expect(first.lines.find((line) => /holds no data of this bot yet/.test(String(line.msg)))).toMatchObject({ level: 30 });
    const second = await replica(9000 + bots);
    expect(second.lines.some((line) => /holds no data of this bot yet/.test(String(line.msg)))).toBe(false);
  });
});
