// A replica's begin and commit steps, gathered: a commit that fails in a batch leaves the commits before it whole,
// so their retry finds them done and does not apply their changes a second time.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/logger.js';
import { LedgerSteps } from '../../../src/store/redis/ledger-steps.js';
import { RedisAccess } from '../../../src/store/redis/redis-access.js';
import { connectRedis } from '../../../src/store/redis/redis-connection.js';
import { redisForSuite, redisStoreConfig } from '../../support/redis-server.js';

const logger = createLogger({ level: 'silent' });
const redis = redisForSuite();

async function openSteps(prefix: string): Promise<{ steps: LedgerSteps; access: RedisAccess }> {
  const connection = await connectRedis({ config: redisStoreConfig(redis.server), logger });
  const access = new RedisAccess(connection, prefix);
  return { steps: new LedgerSteps({ store: access, owner: 'r1', now: Date.now, capacity: 1000, stateTtlMs: '' }), access };
}

describe('LedgerSteps', () => {
  it('a commit that fails half-way through a batch leaves the ones before it whole: their retry finds them done', async () => {
    const prefix = 'steps1:';
    const { steps, access } = await openSteps(prefix);
    const first = { id: 1, fingerprint: 'f1', keys: [`${prefix}state:chat:1`], reads: [''], values: ['{"n":1}'], outbox: '' };
    // The second's outbox changes are not JSON: the script stops in the middle of its commit.
    const second = { id: 2, fingerprint: 'f2', keys: [`${prefix}state:chat:2`], reads: [''], values: ['{"n":1}'], outbox: '{not json' };
    const results = await Promise.allSettled([steps.commit(first), steps.commit(second)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    // The first was committed whole before the failure: its retry is answered as done, not as a conflict with the
    // state it wrote itself (which would have it read again and apply its change once more).
    expect(await steps.commit(first)).toBe('ok');
    expect(await redis.admin.get(`${prefix}state:chat:1`)).toBe('{"n":1}');
    expect(await redis.admin.hget(`${prefix}done`, '1')).toBe('f1');
    expect(await redis.admin.hget(`${prefix}done`, '2')).toBeNull();
    await access.close();
  });
});
