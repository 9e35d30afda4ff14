// The Redis ledger's inbox and its cost per update: an update stored, begun with its state read, and committed
// is three round trips with one inbox write and one delete; the inbox an earlier version left (an entry spread
// over several hashes and sets) is converted once at start, never while a replica of that version runs.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { Update } from '../../../src/api/types.js';
import { createLogger } from '../../../src/log/logger.js';
import { connectRedis } from '../../../src/store/redis/redis-connection.js';
import { RedisLedger } from '../../../src/store/redis/redis-ledger.js';
import { RedisPollLeadership } from '../../../src/store/redis/poll-lease.js';
import { commandCalls, redisForSuite, redisStoreConfig } from '../../support/redis-server.js';

const logger = createLogger({ level: 'silent' });
const redis = redisForSuite();
let prefixes = 0;

/** The names of the commands the ledger sent, as it sends them (a script's own commands are not among them). */
let sent: string[] | undefined;

async function openLedger(prefix: string, capacity?: number): Promise<RedisLedger> {
  const connection = await connectRedis({ config: redisStoreConfig(redis.server), logger });
  const client = connection.client as Redis;
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command, stream) => {
    sent?.push(command.name);
    return send(command, stream);
  };
  return RedisLedger.open({ connection, prefix, logger, inbox: true, ...(capacity === undefined ? {} : { capacity }) });
}

const update = (id: number, chatId = 1): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 1, chat: { id: chatId, type: 'private', first_name: 'A' }, from: { id: 2, is_bot: false, first_name: 'A' }, text: 'x' },
  }) as Update;

/** What Redis ran during `work` (a script's commands too), and what the ledger sent. */
async function callsDuring(work: () => Promise<void>): Promise<{ ran: Record<string, number>; sent: string[] }> {
  const before = await commandCalls(redis.admin);
  sent = [];
  await work();
  const client = sent;
  sent = undefined;
  const after = await commandCalls(redis.admin);
  const delta: Record<string, number> = {};
  for (const [name, calls] of Object.entries(after)) if (name !== 'info' && calls > (before[name] ?? 0)) delta[name] = calls - (before[name] ?? 0);
  return { ran: delta, sent: client };
}

describe('the Redis inbox, per update', () => {
  it('accept, the state read with the intent, and the commit of a state change: three scripts, no other round trip; the entry is one hash field', async () => {
    const prefix = `i${++prefixes}:`;
    const ledger = await openLedger(prefix);
    const scope = { chatId: 1, userId: 2 };
    const increment = { type: 'set_state' as const, scope: 'chat' as const, key: 'n', value: 1, increment: 1 };
    // Update 1 the same way first: the server learns the scripts (the first run of each is an EVAL).
    await ledger.accept(update(1));
    await ledger.loadAndBegin(scope, update(1));
    await ledger.commit(update(1), { scope, changes: [increment] });
    const { ran, sent } = await callsDuring(async () => {
      await ledger.accept(update(2));
      await ledger.waitForTurn('chat:1', 2, new AbortController().signal);
      expect((await ledger.loadAndBegin(scope, update(2))).chat).toEqual({ n: 1 });
      await ledger.commit(update(2), { scope, changes: [increment] });
    });
    // No turn asked (it heads its chat), no MGET before the commit (it checks what the load read).
    expect(sent).toEqual(['evalsha', 'evalsha', 'evalsha']);
    // The inbox entry is one write (HSET) and one delete (HDEL); the intent one HSET and one HDEL; the done mark one HSET.
    expect(ran.hset).toBe(3);
    expect(ran.hdel).toBe(2);
    expect((await ledger.load(scope)).chat).toEqual({ n: 2 });
    expect(await redis.admin.exists(`${prefix}inbox`, `${prefix}inbox:fp`, `${prefix}inbox:owner`, `${prefix}inbox:chat`, `${prefix}inbox:order`)).toBe(0);
    await ledger.close();
  });

  it("an update stored behind another of its chat that this replica committed takes its turn without asking; behind another replica's, it asks", async () => {
    const prefix = `i${++prefixes}:`;
    const [here, there] = await Promise.all([openLedger(prefix), openLedger(prefix)]);
    const signal = new AbortController().signal;
    for (const id of [1, 2]) await here.accept(update(id));
    await here.waitForTurn('chat:1', 1, signal);
    await here.commit(update(1), null);
    const { sent: afterOwn } = await callsDuring(() => here.waitForTurn('chat:1', 2, signal));
    expect(afterOwn).toEqual([]);
    await here.commit(update(2), null);
    // Update 3 on the other replica, 4 here behind it: 4's turn is Redis's to say once 3 commits there.
    await there.accept(update(3));
    await here.accept(update(4));
    await there.commit(update(3), null);
    const { sent: afterOther } = await callsDuring(() => here.waitForTurn('chat:1', 4, signal));
    expect(afterOther.length).toBeGreaterThan(0);
    await Promise.all([here.close(), there.close()]);
  });

  it('a commit whose documents another replica changed since the load reads them again and keeps both changes', async () => {
    const prefix = `i${++prefixes}:`;
    const [a, b] = await Promise.all([openLedger(prefix), openLedger(prefix)]);
    const increment = { type: 'set_state' as const, scope: 'user' as const, key: 'n', value: 1, increment: 1 };
    await a.accept(update(1, 1));
    await a.loadAndBegin({ chatId: 1, userId: 2 }, update(1, 1));
    // The same user in another chat, on the other replica, between a's load and a's commit.
    await b.commit(update(2, 7), { scope: { chatId: 7, userId: 2 }, changes: [increment] });
    await a.commit(update(1, 1), { scope: { chatId: 1, userId: 2 }, changes: [increment] });
    expect((await a.load({ chatId: 1, userId: 2 })).user).toEqual({ n: 2 });
    await Promise.all([a.close(), b.close()]);
  });

  it('the intent taken with the state is fenced like begin: an update another replica took over is not begun here', async () => {
    const prefix = `i${++prefixes}:`;
    const ledger = await openLedger(prefix);
    await ledger.accept(update(5));
    // Another replica's name on the entry (this one was paused past its lease and its work taken over).
    const entry = (await redis.admin.hget(`${prefix}inbox`, '5'))!;
    const [order, , ...rest] = entry.split('\n');
    await redis.admin.hset(`${prefix}inbox`, '5', [order, 'someone-else', ...rest].join('\n'));
    await expect(ledger.loadAndBegin({ chatId: 1, userId: 2 }, update(5))).rejects.toThrow(/taken over by another replica/);
    expect(await redis.admin.hget(`${prefix}begun`, '5')).toBeNull();
    await ledger.close();
  });
});

describe('the Redis inbox, for many updates at once', () => {
  it('updates that arrive together (webhook POSTs in one pass of the event loop) are stored in one request, and each chat keeps its order without asking Redis', async () => {
    const prefix = `i${++prefixes}:`;
    const ledger = await openLedger(prefix);
    const scope = (id: number) => ({ chatId: (id % 4) + 1, userId: 2 });
    // The server learns the scripts first (the first run of each is an EVAL).
    await ledger.accept(update(1, 1));
    await ledger.loadAndBegin(scope(0), update(1, 1));
    await ledger.commit(update(1, 1), null);
    const ids = Array.from({ length: 20 }, (_, i) => 10 + i);
    const stored = await callsDuring(async () => {
      expect(await Promise.all(ids.map((id) => ledger.accept(update(id, (id % 4) + 1))))).toEqual(ids.map(() => 'stored'));
    });
    expect(stored.sent).toEqual(['evalsha']);
    // Handled chat by chat in the order stored: each update's turn is known here (the first of its chat, or the
    // one right behind an update committed here), so no request asks for a turn.
    const handled = await callsDuring(async () => {
      for (const chat of [1, 2, 3, 4]) {
        for (const id of ids.filter((i) => (i % 4) + 1 === chat)) {
          await ledger.waitForTurn(`chat:${chat}`, id, new AbortController().signal);
          await ledger.loadAndBegin(scope(id), update(id, chat));
          await ledger.commit(update(id, chat), null);
        }
      }
    });
    expect(handled.sent).toEqual(ids.flatMap(() => ['evalsha', 'evalsha']));
    expect(await redis.admin.hlen(`${prefix}inbox`)).toBe(0);
    await ledger.close();
  });

  it("updates of many chats that reach their state read, or their commit, together go to Redis in one request each; each gets its own chat's state; one fenced fails alone", async () => {
    const prefix = `i${++prefixes}:`;
    const ledger = await openLedger(prefix);
    const scope = (chat: number) => ({ chatId: chat, userId: 2 });
    const set = (value: number) => ({ type: 'set_state' as const, scope: 'chat' as const, key: 'n', value });
    // Each chat's state first (and the scripts learnt: the first run of each is an EVAL).
    for (const chat of [1, 2, 3, 4]) {
      await ledger.accept(update(chat, chat));
      await ledger.loadAndBegin(scope(chat), update(chat, chat));
      await ledger.commit(update(chat, chat), { scope: scope(chat), changes: [set(chat * 10)] });
    }
    const next = [1, 2, 3, 4].map((chat) => update(10 + chat, chat));
    await Promise.all(next.map((u) => ledger.accept(u)));
    // Update 14 was taken over by another replica (this one was paused past its lease).
    const entry = (await redis.admin.hget(`${prefix}inbox`, '14'))!;
    const [order, , ...rest] = entry.split('\n');
    await redis.admin.hset(`${prefix}inbox`, '14', [order, 'someone-else', ...rest].join('\n'));
    const begun = await callsDuring(async () => {
      const states = await Promise.allSettled(next.map((u, i) => ledger.loadAndBegin(scope(i + 1), u)));
      expect(states.slice(0, 3).map((s) => (s.status === 'fulfilled' ? s.value.chat : s.reason))).toEqual([{ n: 10 }, { n: 20 }, { n: 30 }]);
      expect(states[3]).toMatchObject({
        status: 'rejected',
        reason: expect.objectContaining({ message: expect.stringMatching(/taken over by another replica/) }),
      });
    });
    expect(begun.sent).toEqual(['evalsha']);
    expect(await redis.admin.hget(`${prefix}begun`, '14')).toBeNull();
    const committed = await callsDuring(async () => {
      await Promise.all(next.slice(0, 3).map((u, i) => ledger.commit(u, { scope: scope(i + 1), changes: [set(i + 100)] })));
    });
    expect(committed.sent).toEqual(['evalsha']);
    expect((await Promise.all([1, 2, 3].map((chat) => ledger.load(scope(chat))))).map((state) => state.chat)).toEqual([{ n: 100 }, { n: 101 }, { n: 102 }]);
    expect(await redis.admin.hkeys(`${prefix}inbox`)).toEqual(['14']);
    expect(await redis.admin.hlen(`${prefix}begun`)).toBe(0);
    await ledger.close();
  });

  it('in one request of commits, one whose documents another replica changed is read again and retried alone; the others land at once', async () => {
    const prefix = `i${++prefixes}:`;
    const [a, b] = await Promise.all([openLedger(prefix), openLedger(prefix)]);
    const increment = { type: 'set_state' as const, scope: 'user' as const, key: 'n', value: 1, increment: 1 };
    const mine = [1, 2, 3].map((chat) => update(chat, chat));
    await Promise.all(mine.map((u) => a.accept(u)));
    await Promise.all(mine.map((u, i) => a.loadAndBegin({ chatId: i + 1, userId: 10 + i }, u)));
    // User 10 again, in another chat, on the other replica: between a's read and a's commit.
    await b.commit(update(9, 9), { scope: { chatId: 9, userId: 10 }, changes: [increment] });
    await Promise.all(mine.map((u, i) => a.commit(u, { scope: { chatId: i + 1, userId: 10 + i }, changes: [increment] })));
    const users = await Promise.all([0, 1, 2].map((i) => a.load({ chatId: i + 1, userId: 10 + i })));
    expect(users.map((state) => state.user)).toEqual([{ n: 2 }, { n: 1 }, { n: 1 }]);
    expect(await redis.admin.hlen(`${prefix}inbox`)).toBe(0);
    await Promise.all([a.close(), b.close()]);
  });

  it('the done ids kept stay within twice the capacity; the newest are still known, the oldest answered again', async () => {
    const prefix = `i${++prefixes}:`;
    const ledger = await openLedger(prefix, 4);
    for (let id = 1; id <= 100; id++) {
      await ledger.accept(update(id));
      await ledger.loadAndBegin({ chatId: 1, userId: 2 }, update(id));
      await ledger.commit(update(id), null);
    }
    const kept = await redis.admin.hlen(`${prefix}done`);
    // Counted every 16th id: at most 16 over twice the capacity between counts.
    expect(kept).toBeGreaterThanOrEqual(4);
    expect(kept).toBeLessThanOrEqual(2 * 4 + 16);
    expect(await redis.admin.zcard(`${prefix}done:ids`)).toBe(kept);
    expect(await ledger.accept(update(100))).toBe('known');
    expect(await ledger.accept(update(1))).toBe('stored');
    await ledger.close();
  });
});

/** A ledger under a fresh prefix whose polling lease this replica holds. */
async function openLeader() {
  const prefix = `i${++prefixes}:`;
  const ledger = await openLedger(prefix);
  const leadership = new RedisPollLeadership(ledger);
  const lease = await leadership.acquire(10_000);
  if (!lease.held) throw new Error('no lease');
  return { prefix, ledger, leadership, lease };
}

describe("the polling leader's inbox", () => {
  it('a fetched batch handed over at once is stored in one round trip; each update gets its own answer; a lost lease stores none', async () => {
    const { prefix, ledger, leadership, lease } = await openLeader();
    await leadership.accept(update(1, 1), lease.token);
    const { sent } = await callsDuring(async () => {
      const answers = await Promise.all(
        [2, 3, 4].map((id) => leadership.accept(update(id, id), lease.token)).concat(leadership.accept(update(1, 1), lease.token)),
      );
      expect(answers).toEqual(['stored', 'stored', 'stored', 'known']);
    });
    expect(sent).toEqual(['evalsha']);
    // Each chat's first update is claimable; all are in the inbox.
    const claim = await leadership.claim(10);
    expect(claim.updates.map((u) => u.update_id)).toEqual([1, 2, 3, 4]);
    // Every stored update is now this replica's: nothing else can become claimable until the leader stores more.
    expect(claim.othersStored).toBe(0);
    await redis.admin.set(`${prefix}leader:token`, 'another');
    await expect(Promise.all([5, 6].map((id) => leadership.accept(update(id, id), lease.token)))).rejects.toThrow(/no longer holds the polling lease/);
    expect(await redis.admin.hexists(`${prefix}inbox`, '5')).toBe(0);
    await ledger.close();
  });

  it('a batch larger than one command carries (600 updates) is claimed whole, and confirming past it forgets every done id', async () => {
    const { prefix, ledger, leadership, lease } = await openLeader();
    const ids = Array.from({ length: 600 }, (_, i) => i + 1);
    expect(new Set(await Promise.all(ids.map((id) => leadership.accept(update(id, id), lease.token))))).toEqual(new Set(['stored']));
    const { updates: claimed } = await leadership.claim(1000);
    expect(claimed.map((u) => u.update_id)).toEqual(ids);
    // Each entry is now this replica's: another replica's claim finds none left.
    expect(await redis.admin.zcard(`${prefix}inbox:unclaimed`)).toBe(0);
    const owners = new Set((await redis.admin.hvals(`${prefix}inbox`)).map((entry) => entry.split('\n')[1]));
    expect(owners.size).toBe(1);
    expect([...owners][0]).not.toBe('');
    for (const u of claimed) {
      await ledger.loadAndBegin({ chatId: u.update_id, userId: 2 }, u);
      await ledger.commit(u, null);
    }
    expect(await redis.admin.hlen(`${prefix}done`)).toBe(600);
    await ledger.confirm(601, { token: lease.token });
    expect(await redis.admin.hlen(`${prefix}done`)).toBe(0);
    expect(await redis.admin.zcard(`${prefix}done:ids`)).toBe(0);
    await ledger.close();
  });
});

describe("an earlier version's inbox", () => {
  /** What a replica of the earlier layout left: update 3 stored by a replica that died, update 4 unclaimed behind it. */
  async function writeLegacyInbox(prefix: string): Promise<void> {
    await redis.admin.hset(`${prefix}inbox`, '3', JSON.stringify(update(3)), '4', JSON.stringify(update(4)));
    await redis.admin.hset(`${prefix}inbox:fp`, '3', 'fp3', '4', 'fp4');
    await redis.admin.hset(`${prefix}inbox:owner`, '3', 'gone-replica', '4', 'gone-replica');
    await redis.admin.hset(`${prefix}inbox:chat`, '3', 'chat:1', '4', 'chat:1');
    await redis.admin.zadd(`${prefix}inbox:order`, 1, '3', 2, '4');
    await redis.admin.set(`${prefix}inbox:seq`, '2');
    await redis.admin.rpush(`${prefix}chat:chat:1`, '3', '4');
  }

  it('is converted once at start: its updates are handled in order, and the old keys are gone', async () => {
    const prefix = `i${++prefixes}:`;
    await writeLegacyInbox(prefix);
    const ledger = await openLedger(prefix);
    expect((await ledger.pending()).map((u) => u.update_id)).toEqual([3, 4]);
    expect(await redis.admin.exists(`${prefix}inbox:seq`, `${prefix}inbox:fp`, `${prefix}inbox:owner`, `${prefix}inbox:chat`, `${prefix}inbox:order`)).toBe(0);
    await ledger.waitForTurn('chat:1', 3, new AbortController().signal);
    await ledger.commit(update(3), null);
    await ledger.waitForTurn('chat:1', 4, new AbortController().signal);
    await ledger.commit(update(4), null);
    expect(await redis.admin.hlen(`${prefix}inbox`)).toBe(0);
    // The order goes on from the earlier counter.
    expect(await ledger.accept(update(9))).toBe('stored');
    expect((await redis.admin.hget(`${prefix}inbox`, '9'))!.split('\n')[0]).toBe('3');
    await ledger.close();
  });

  it('is left alone while a replica of that version still runs: the start fails and says what to do', async () => {
    const prefix = `i${++prefixes}:`;
    await writeLegacyInbox(prefix);
    await redis.admin.set(`${prefix}replica:old-one`, '1', 'PX', 10_000);
    await expect(openLedger(prefix)).rejects.toThrow(/earlier hearsay version still runs .* stop every replica/);
    expect(await redis.admin.hget(`${prefix}inbox`, '3')).toBe(JSON.stringify(update(3)));
  });
});
