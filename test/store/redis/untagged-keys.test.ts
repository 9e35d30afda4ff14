// Upgrading from the untagged key names (`hearsay:bot<id>:…`) of earlier versions: the store opened by this
// version finds the bot's data (state, done marks, time to live kept) under the hash-tagged names, leaves no old
// key behind and touches no other bot's keys; while an old replica still holds its lease, it refuses to start.
import { describe, expect, it } from 'vitest';
import type { Update } from '../../../src/api/types.js';
import { createLogger } from '../../../src/log/logger.js';
import { openRedisStore } from '../../../src/store/redis/open-redis-store.js';
import { connectRedis } from '../../../src/store/redis/redis-connection.js';
import { RedisLedger } from '../../../src/store/redis/redis-ledger.js';
import { untaggedPrefix } from '../../../src/store/redis/untagged-keys.js';
import { redisForSuite, redisStoreConfig } from '../../support/redis-server.js';

const logger = createLogger({ level: 'silent' });
const redis = redisForSuite();

const update = (id: number, chatId: number): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 1, chat: { id: chatId, type: 'private' }, from: { id: chatId, is_bot: false, first_name: 'U' }, text: 'hi' },
  }) as Update;

/** What a replica of an earlier version leaves: its data under the untagged prefix (and, while it runs, its lease). */
async function writeAsEarlierVersion(botId: number, options: { keepRunning?: boolean } = {}): Promise<RedisLedger> {
  const connection = await connectRedis({ config: redisStoreConfig(redis.server), logger });
  const old = await RedisLedger.open({ connection, prefix: untaggedPrefix(botId), logger, inbox: true, stateTtlMs: 3_600_000 });
  await old.commit(update(10, 5), { scope: { chatId: 5, userId: 5 }, changes: [{ type: 'set_state', scope: 'user', key: 'visits', value: 3 }] });
  await redis.admin.set(`${untaggedPrefix(botId)}epoch`, 'earlier-epoch');
  if (!options.keepRunning) await old.close();
  return old;
}

describe('keys of an earlier version', () => {
  it('are renamed once to the hash-tagged names, with their values and time to live, other bots untouched', async () => {
    await writeAsEarlierVersion(41);
    await redis.admin.set('hearsay:bot411:epoch', 'another bot');
    const store = await openRedisStore({ config: redisStoreConfig(redis.server), botId: 41, inbox: true, logger });
    try {
      expect(await store.ledger.load({ chatId: 5, userId: 5 })).toMatchObject({ user: { visits: 3 } });
      expect(await store.ledger.seen(update(10, 5))).toBe(true);
      // The same epoch: the data was kept, not started over.
      expect(await redis.admin.get('hearsay:{bot41}:epoch')).toBe('earlier-epoch');
      expect(await redis.admin.pttl('hearsay:{bot41}:state:user:5')).toBeGreaterThan(3_000_000);
      expect(await redis.admin.keys('hearsay:bot41:*')).toEqual([]);
      expect(await redis.admin.get('hearsay:bot411:epoch')).toBe('another bot');
    } finally {
      await store.close();
    }
  });

  it('while a replica of the earlier version runs, the store refuses to open and renames nothing', async () => {
    const old = await writeAsEarlierVersion(42, { keepRunning: true });
    try {
      await expect(openRedisStore({ config: redisStoreConfig(redis.server), botId: 42, inbox: true, logger })).rejects.toThrow(
        /a replica of an earlier hearsay version still runs on this bot's Redis keys \(hearsay:bot42:…\): stop every replica/,
      );
      expect(await redis.admin.get('hearsay:bot42:epoch')).toBe('earlier-epoch');
      expect(await redis.admin.keys('hearsay:{bot42}:*')).toEqual([]);
    } finally {
      await old.close();
    }
  });
});
