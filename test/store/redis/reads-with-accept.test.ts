// An update stored at the head of its chat's queue has its intent taken and its state read in the same script
// call as its store (webhook: its replica's accept; polling: the leader keeps it instead of leaving it for a
// claim), so its handling asks Redis once more (the commit); it is in doubt after a crash like any begun update;
// a state change of no update sent meanwhile from this replica (a flow's timeout) makes it read again, and an
// update stored behind another is begun as before (polling: stored unclaimed, for any replica).
import { describe, expect, it } from 'vitest';
import type { Update } from '../../../src/api/types.js';
import { createLogger } from '../../../src/log/logger.js';
import { connectRedis } from '../../../src/store/redis/redis-connection.js';
import { RedisPollLeadership } from '../../../src/store/redis/poll-lease.js';
import { RedisLedger } from '../../../src/store/redis/redis-ledger.js';
import { redisForSuite, redisStoreConfig } from '../../support/redis-server.js';

const logger = createLogger({ level: 'silent' });
const redis = redisForSuite();
let prefixes = 0;

async function openLedger(prefix: string, leaseMs?: number): Promise<RedisLedger> {
  const connection = await connectRedis({ config: redisStoreConfig(redis.server), logger });
  return RedisLedger.open({ connection, prefix, logger, inbox: true, ...(leaseMs ? { leaseMs } : {}) });
}

const update = (id: number, chatId = 1): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 1, chat: { id: chatId, type: 'private', first_name: 'A' }, from: { id: 2, is_bot: false, first_name: 'A' }, text: 'x' },
  }) as Update;

const scope = (chatId = 1) => ({ chatId, userId: 2 });
const setChat = (value: string) => [{ type: 'set_state' as const, scope: 'chat' as const, key: 'k', value }];

/** Script calls the server ran since the last look (an EVALSHA the server did not have the script for is not one). */
async function scriptCalls(): Promise<() => Promise<number>> {
  const count = async () => {
    const info = await redis.admin.info('commandstats');
    let ran = 0;
    for (const [, , calls, rest] of info.matchAll(/^cmdstat_(evalsha|eval):calls=(\d+)(.*)$/gm)) {
      const refused = [...rest!.matchAll(/(?:rejected|failed)_calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
      ran += Number(calls) - refused;
    }
    return ran;
  };
  const before = await count();
  return async () => (await count()) - before;
}

describe('an update begun as it is stored (Redis, webhook)', () => {
  it("stored at the head of its chat: the store's answer carries its state, and loading it asks Redis nothing", async () => {
    const ledger = await openLedger(`bwa${++prefixes}:`);
    await ledger.commit(update(1), { scope: scope(), changes: setChat('before') });
    const calls = await scriptCalls();
    const { result, begun } = await ledger.acceptAndBegin(update(2), scope());
    expect(result).toBe('stored');
    expect(begun).toBeDefined();
    expect(await calls()).toBe(1);
    const state = await ledger.loadAndBegin(scope(), update(2), begun);
    expect(state.chat).toEqual({ k: 'before' });
    expect(await calls()).toBe(1);
    await ledger.commit(update(2), { scope: scope(), changes: setChat('after') });
    expect(await calls()).toBe(2);
    expect((await ledger.load(scope())).chat).toEqual({ k: 'after' });
    expect(await ledger.pending()).toEqual([]);
    await ledger.close();
  });

  it('the intent is taken with the store: a replica killed before it commits leaves the update in doubt to the one that takes it over', async () => {
    const prefix = `bwa${++prefixes}:`;
    const first = await openLedger(prefix, 300);
    expect((await first.acceptAndBegin(update(5), scope())).begun).toBeDefined();
    const second = await openLedger(prefix, 300);
    // The first replica stops heartbeating (a kill -9) without cleaning up.
    (first as unknown as { heartbeat: NodeJS.Timeout }).heartbeat.close();
    await expect.poll(async () => (await second.pending()).map((u) => u.update_id), { timeout: 5000, interval: 100 }).toEqual([5]);
    expect(await second.inDoubt()).toEqual([5]);
    await Promise.all([first.close(), second.close()]);
  });

  it("a state change of no update sent from this replica after the store (a flow's timeout): the update's state is read again, and it sees the change", async () => {
    const ledger = await openLedger(`bwa${++prefixes}:`);
    await ledger.commit(update(1), { scope: scope(), changes: setChat('old') });
    const { begun } = await ledger.acceptAndBegin(update(2), scope());
    expect(begun).toBeDefined();
    expect(await ledger.commitState({ scope: scope(), changes: setChat('from a timeout') })).toBe(true);
    const calls = await scriptCalls();
    expect((await ledger.loadAndBegin(scope(), update(2), begun)).chat).toEqual({ k: 'from a timeout' });
    expect(await calls()).toBe(1);
    await ledger.close();
  });

  it('stored behind an uncommitted update of its chat, or asked for with another scope: not begun with the store; loading it begins it', async () => {
    const ledger = await openLedger(`bwa${++prefixes}:`);
    expect((await ledger.acceptAndBegin(update(1), scope())).begun).toBeDefined();
    const behind = await ledger.acceptAndBegin(update(2), scope());
    expect(behind).toEqual({ result: 'stored' });
    const otherChat = await ledger.acceptAndBegin(update(3, 7), scope(7));
    await ledger.commit(update(1), null);
    const calls = await scriptCalls();
    expect((await ledger.loadAndBegin(scope(), update(2), behind.begun)).chat).toEqual({});
    expect(await calls()).toBe(1);
    // Begun with another scope's documents than the update loads: read again.
    expect((await ledger.loadAndBegin({ chatId: 7, userId: 3 }, update(3, 7), otherChat.begun)).chat).toEqual({});
    expect(await calls()).toBe(2);
    // The same update again is known, and not begun a second time.
    expect(await ledger.acceptAndBegin(update(2), scope())).toEqual({ result: 'known' });
    await ledger.close();
  });
});

describe('the polling leader keeps what it can start at once (Redis)', () => {
  it("an update heading its chat is the leader's, begun with its store: no other replica claims it; the next of its chat waits unclaimed until it commits", async () => {
    const prefix = `bwa${++prefixes}:`;
    const [leader, other] = [await openLedger(prefix), await openLedger(prefix)];
    const lease = await new RedisPollLeadership(leader).acquire(8000);
    if (!lease.held) throw new Error('the lease should be free');
    const leadership = new RedisPollLeadership(leader);
    await leader.commit(update(1), { scope: scope(), changes: setChat('before') });
    const kept = await leadership.acceptAndKeep(update(2), lease.token, scope());
    expect(kept.result).toBe('stored');
    expect((await leader.loadAndBegin(scope(), update(2), kept.begun)).chat).toEqual({ k: 'before' });
    // The next update of the chat: stored unclaimed behind it, whoever asks.
    expect(await leadership.acceptAndKeep(update(3), lease.token, scope())).toEqual({ result: 'stored' });
    expect((await other.claim(10)).updates).toEqual([]);
    await leader.commit(update(2), { scope: scope(), changes: setChat('after') });
    expect((await other.claim(10)).updates.map((u) => u.update_id)).toEqual([3]);
    // A replica that no longer holds the lease keeps nothing, nor stores.
    await expect(leadership.acceptAndKeep(update(4, 9), `${Number(lease.token) + 1}`, scope(9))).rejects.toThrow(/polling lease/);
    await Promise.all([leader.close(), other.close()]);
  });

  it("a kept update is the leader's own: a leader killed before it commits leaves it in doubt to the replica that takes it over", async () => {
    const prefix = `bwa${++prefixes}:`;
    const leader = await openLedger(prefix, 300);
    const lease = await new RedisPollLeadership(leader).acquire(8000);
    if (!lease.held) throw new Error('the lease should be free');
    expect((await new RedisPollLeadership(leader).acceptAndKeep(update(7), lease.token, scope())).begun).toBeDefined();
    const other = await openLedger(prefix, 300);
    expect((await other.claim(10)).updates).toEqual([]);
    (leader as unknown as { heartbeat: NodeJS.Timeout }).heartbeat.close();
    await expect.poll(async () => (await other.pending()).map((u) => u.update_id), { timeout: 5000, interval: 100 }).toEqual([7]);
    expect(await other.inDoubt()).toEqual([7]);
    await Promise.all([leader.close(), other.close()]);
  });
});
