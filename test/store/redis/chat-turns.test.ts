// Across replicas, a chat's updates run one at a time in the order they were accepted: a replica holding a
// later update waits for the commit of the earlier one held by another replica; and a replica paused past its
// lease can no longer start sending an update that another took over.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Update } from '../../../src/api/types.js';
import { createLogger } from '../../../src/log/logger.js';
import { RedisChatSequencer } from '../../../src/store/redis/chat-turns.js';
import { connectRedis } from '../../../src/store/redis/redis-connection.js';
import { RedisLedger, ReplicaFencedError } from '../../../src/store/redis/redis-ledger.js';
import { commandCalls, startRedisServer, type RedisServer, redisStoreConfig } from '../../support/redis-server.js';

const logger = createLogger({ level: 'silent' });
let server: RedisServer;
let prefixes = 0;

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.close();
});

async function replica(prefix: string, leaseMs = 10_000): Promise<RedisLedger> {
  const connection = await connectRedis({
    config: redisStoreConfig(server),
    logger,
  });
  return RedisLedger.open({ connection, prefix, logger, inbox: true, leaseMs });
}

const update = (id: number, chatId = 1): Update =>
  ({
    update_id: id,
    message: {
      message_id: id,
      date: 1,
      chat: { id: chatId, type: 'private', first_name: 'A' },
      from: { id: chatId, is_bot: false, first_name: 'A' },
      text: `m${id}`,
    },
  }) as Update;

describe('chat turns across replicas', () => {
  it("a later update of a chat waits, on another replica, for the earlier one's commit; other chats do not wait", async () => {
    const prefix = `turns${++prefixes}:`;
    const [a, b] = [await replica(prefix), await replica(prefix)];
    const [seqA, seqB] = [new RedisChatSequencer(a, { concurrency: 4 }), new RedisChatSequencer(b, { concurrency: 4 })];
    await a.accept(update(1));
    await b.accept(update(2));
    await b.accept(update(3, 2));
    const order: string[] = [];
    let asked = 0;
    const waitForTurn = b.waitForTurn.bind(b);
    b.waitForTurn = (key, id, signal) => {
      asked += 1;
      return waitForTurn(key, id, signal);
    };
    // Replica B starts first with the later update of chat 1, and with chat 2's update.
    const later = seqB.run('chat:1', async () => void order.push('2'), 2);
    const otherChat = seqB.run('chat:2', async () => void order.push('3 (other chat)'), 3);
    await otherChat;
    await b.commit(update(3, 2), null);
    await expect.poll(() => asked).toBeGreaterThanOrEqual(2);
    expect(order).toEqual(['3 (other chat)']);
    await seqA.run(
      'chat:1',
      async () => {
        order.push('1');
        await a.commit(update(1), null);
      },
      1,
    );
    await later;
    expect(order).toEqual(['3 (other chat)', '1', '2']);
    await Promise.all([a.close(), b.close()]);
  });

  it('an update stored at the head of its chat asks Redis nothing for its turn; one stored right behind an update this replica holds waits for its end and asks nothing either', async () => {
    const prefix = `turns${++prefixes}:`;
    const a = await replica(prefix);
    const seq = new RedisChatSequencer(a, { concurrency: 4 });
    const admin = new Redis(server.url);
    await a.accept(update(11));
    await a.accept(update(12));
    await admin.config('RESETSTAT');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const order: number[] = [];
    const first = seq.run(
      'chat:1',
      async () => {
        await gate;
        order.push(11);
        await a.commit(update(11), null);
      },
      11,
    );
    const second = seq.run(
      'chat:1',
      async () => {
        order.push(12);
        await a.commit(update(12), null);
      },
      12,
    );
    // Past the local wait's cap (1 s): 12 knows from its accept that it follows 11, held here, and waits for 11's end.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual([11, 12]);
    const stats = await commandCalls(admin);
    const calls = (name: string) => stats[name] ?? 0;
    // Never asked whose turn it is (a polling wait would have asked every 5–100 ms for 0.6 s)…
    expect(calls('lpos')).toBe(0);
    // …11 committed here, so 12's turn came with it: the two commits are the only scripts.
    expect(calls('evalsha') + calls('eval')).toBe(2);
    admin.disconnect();
    await a.close();
  });

  it('an older update of a chat that reaches a replica after a newer one (taken over from a dead replica) still goes first: Redis decides over the local wait', async () => {
    const prefix = `turns${++prefixes}:`;
    const a = await replica(prefix);
    const seq = new RedisChatSequencer(a, { concurrency: 4 });
    for (const id of [1, 2, 3]) await a.accept(update(id));
    let asked = 0;
    const waitForTurn = a.waitForTurn.bind(a);
    a.waitForTurn = (key, id, signal) => {
      asked += 1;
      return waitForTurn(key, id, signal);
    };
    const order: number[] = [];
    const handle = (id: number) =>
      seq.run(
        'chat:1',
        async () => {
          order.push(id);
          await a.commit(update(id), null);
        },
        id,
      );
    // Update 3 comes first here, 2 after it (as an update taken over from a dead replica can): Redis's order wins.
    const three = handle(3);
    const two = handle(2);
    await expect.poll(() => asked).toBeGreaterThanOrEqual(1);
    await handle(1);
    await Promise.all([two, three]);
    expect(order).toEqual([1, 2, 3]);
    await a.close();
  });

  it('a replica paused past its lease cannot begin sending an update another replica took over; the other can', async () => {
    const prefix = `turns${++prefixes}:`;
    const a = await replica(prefix, 300);
    await a.accept(update(10));
    const b = await replica(prefix, 300);
    // A stops renewing its lease (a long pause), without leaving.
    (a as unknown as { heartbeat: NodeJS.Timeout }).heartbeat.close();
    await expect.poll(async () => (await b.pending()).map((u) => u.update_id), { timeout: 5000, interval: 50 }).toEqual([10]);
    await expect(a.begin(update(10))).rejects.toBeInstanceOf(ReplicaFencedError);
    await b.begin(update(10));
    await b.commit(update(10), null);
    expect(await a.seen(update(10))).toBe(true);
    await Promise.all([a.close(), b.close()]);
    const admin = new Redis(server.url);
    expect(await admin.llen(`${prefix}chat:chat:1`)).toBe(0);
    admin.disconnect();
  });
});
