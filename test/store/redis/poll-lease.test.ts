// The polling lease against a real redis-server: one replica at a time holds it; once the holder stops
// renewing it another takes it with a higher fencing token, and from then on the ex-leader can neither store
// a fetched update nor confirm an offset (a paused leader that wakes up is refused), while the new one can.
// Stored updates are claimed a few at a time, each by one replica, and only the next of each chat: the rest of a busy
// chat waits in the store until the update before it is committed, so other chats' updates are claimed meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Update } from '../../../src/api/types.js';
import { createLogger } from '../../../src/log/logger.js';
import { connectRedis } from '../../../src/store/redis/redis-connection.js';
import { RedisPollLeadership } from '../../../src/store/redis/poll-lease.js';
import { RedisLedger } from '../../../src/store/redis/redis-ledger.js';
import { ReplicaFencedError } from '../../../src/pipeline/replica-ports.js';
import { startRedisServer, type RedisServer, redisStoreConfig } from '../../support/redis-server.js';

const logger = createLogger({ level: 'silent' });
let server: RedisServer;
let prefixes = 0;
const open: RedisLedger[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(open.map((ledger) => ledger.close()));
  await server?.close();
});

async function openLedger(prefix: string): Promise<RedisLedger> {
  const connection = await connectRedis({
    config: redisStoreConfig(server),
    logger,
  });
  const ledger = await RedisLedger.open({ connection, prefix, logger, inbox: true });
  open.push(ledger);
  return ledger;
}

/** The leadership port of a ledger, with the lease length fixed (as a replica uses it). */
function lease(ledger: RedisLedger, leaseMs: number) {
  const port = new RedisPollLeadership(ledger);
  return { acquire: () => port.acquire(leaseMs), renew: (token: string) => port.renew(token, leaseMs), resign: (token: string) => port.resign(token) };
}

const text = (id: number, chat: number): Update => ({
  update_id: id,
  message: {
    message_id: id,
    date: 1_700_000_000,
    chat: { id: chat, type: 'private', first_name: 'U' },
    from: { id: chat, is_bot: false, first_name: 'U' },
    text: `m${id}`,
  },
});

describe('the polling lease', () => {
  it('one holder at a time; after it lapses another takes it with a higher token, and the ex-leader cannot store or confirm', async () => {
    const prefix = `lease${++prefixes}:`;
    const [a, b] = [await openLedger(prefix), await openLedger(prefix)];
    const leaseA = lease(a, 300);
    const leaseB = lease(b, 300);
    const first = await leaseA.acquire();
    expect(first.held).toBe(true);
    expect(await leaseB.acquire()).toEqual({ held: false, holder: a.owner });
    const tokenA = (first as { token: string }).token;
    expect(await a.accept(text(1, 10), { token: tokenA })).toBe('stored');
    await a.confirm(2, { token: tokenA });

    // A is paused: it stops renewing, and B takes the lease once it lapsed.
    let second = await leaseB.acquire();
    while (!second.held) second = await leaseB.acquire();
    const tokenB = second.token;
    expect(Number(tokenB)).toBeGreaterThan(Number(tokenA));

    // A wakes up: refused everywhere, nothing stored or recorded.
    expect(await leaseA.renew(tokenA)).toBe(false);
    await expect(a.accept(text(2, 10), { token: tokenA })).rejects.toBeInstanceOf(ReplicaFencedError);
    await expect(a.confirm(3, { token: tokenA })).rejects.toBeInstanceOf(ReplicaFencedError);
    expect(await leaseA.acquire()).toEqual({ held: false, holder: b.owner });
    // B's token works; update 2 is stored once, by B.
    expect(await leaseB.renew(tokenB)).toBe(true);
    expect(await b.accept(text(2, 10), { token: tokenB })).toBe('stored');
    await b.confirm(3, { token: tokenB });
    // Both of chat 10: 2 is given out once 1 is committed.
    const [claimed] = [...(await a.claim(10)).updates, ...(await b.claim(10)).updates];
    expect(claimed?.update_id).toBe(1);
    await a.commit(claimed!, null);
    expect((await b.claim(10)).updates.map((update) => update.update_id)).toEqual([2]);
  });

  it('a lease given up is free at once; a token of an earlier holding stays refused', async () => {
    const prefix = `lease${++prefixes}:`;
    const [a, b] = [await openLedger(prefix), await openLedger(prefix)];
    const leaseA = lease(a, 60_000);
    const held = (await leaseA.acquire()) as { held: true; token: string };
    await leaseA.resign(held.token);
    const next = await lease(b, 60_000).acquire();
    expect(next.held).toBe(true);
    await expect(a.accept(text(5, 11), { token: held.token })).rejects.toBeInstanceOf(ReplicaFencedError);
    // Even A holding the lease again does not revive its old token.
    await lease(b, 60_000).resign((next as { token: string }).token);
    expect((await leaseA.acquire()).held).toBe(true);
    await expect(a.confirm(9, { token: held.token })).rejects.toBeInstanceOf(ReplicaFencedError);
  });

  it('stored updates are claimed a few at a time, each by one replica, oldest first; taking over ignores them', async () => {
    const prefix = `lease${++prefixes}:`;
    const [a, b] = [await openLedger(prefix), await openLedger(prefix)];
    const held = (await lease(a, 60_000).acquire()) as { held: true; token: string };
    for (let id = 1; id <= 6; id++) await a.accept(text(id, 30 + id), held);
    // The periodic takeover (dead replicas' work) must not grab the unclaimed entries all at once.
    expect(await b.pending()).toEqual([]);
    expect(await a.backlog()).toEqual({ unclaimed: 6, stored: 6 });
    expect((await b.claim(2)).updates.map((u) => u.update_id)).toEqual([1, 2]);
    expect((await a.claim(2)).updates.map((u) => u.update_id)).toEqual([3, 4]);
    expect((await b.claim(10)).updates.map((u) => u.update_id)).toEqual([5, 6]);
    expect((await a.claim(10)).updates).toEqual([]);
    expect(await a.backlog()).toEqual({ unclaimed: 0, stored: 6 });
  });

  it("only each chat's next update is given out: a busy chat's backlog waits in the store while other chats are claimed", async () => {
    const prefix = `lease${++prefixes}:`;
    const [a, b] = [await openLedger(prefix), await openLedger(prefix)];
    const held = (await lease(a, 60_000).acquire()) as { held: true; token: string };
    // Chat 40 sends 1–5, then chats 41 and 42 write (6, 7); chat 40 again (8).
    for (let id = 1; id <= 5; id++) await a.accept(text(id, 40), held);
    await a.accept(text(6, 41), held);
    await a.accept(text(7, 42), held);
    await a.accept(text(8, 40), held);
    expect(await a.backlog()).toEqual({ unclaimed: 3, stored: 8 });
    const { updates: first, othersStored } = await b.claim(10);
    expect(first.map((u) => u.update_id)).toEqual([1, 6, 7]);
    // The five stored behind them (2–5, 8) are not B's: its commits may free one of them to claim.
    expect(othersStored).toBe(5);
    expect((await a.claim(10)).updates).toEqual([]);
    // Committing a chat's update gives out its next one, to whichever replica asks.
    await b.commit(first[0]!, null);
    expect((await a.claim(10)).updates.map((u) => u.update_id)).toEqual([2]);
    await b.commit(first[1]!, null);
    expect((await b.claim(10)).updates).toEqual([]);
    expect(await a.backlog()).toEqual({ unclaimed: 0, stored: 6 });
  });
});
