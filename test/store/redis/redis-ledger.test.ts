// The Redis ledger passes the ledger contract unchanged against a real redis-server (AOF, fsync always);
// and, specific to Redis: a replica that dies leaves its intents in doubt and its inbox to the others only
// once its lease has run out, and a store that goes down refuses work and comes back by itself.
import { describe, expect, it } from 'vitest';
import type { Update } from '../../../src/api/types.js';
import type { RedisStoreConfig } from '../../../src/config/store.js';
import { createLogger } from '../../../src/log/logger.js';
import { connectRedis } from '../../../src/store/redis/redis-connection.js';
import { StoreUnavailableError } from '../../../src/pipeline/ports.js';
import { RedisLedger } from '../../../src/store/redis/redis-ledger.js';
import { ledgerContract, type StoreHarness } from '../ledger-contract.js';
import { outboxContract } from '../outbox-contract.js';
import { redisForSuite, redisStoreConfig } from '../../support/redis-server.js';

const logger = createLogger({ level: 'silent' });
const redis = redisForSuite();
let prefixes = 0;

const storeConfig = (): RedisStoreConfig => redisStoreConfig(redis.server);

async function openLedger(prefix: string, options: { leaseMs?: number } = {}): Promise<RedisLedger> {
  const connection = await connectRedis({ config: storeConfig(), logger });
  return RedisLedger.open({ connection, prefix, logger, inbox: true, ...options });
}

// What a crash leaves: every key the server holds under the prefix, but no live replica (its lease died with it).
const COPY = `
local keys = redis.call('KEYS', KEYS[1] .. '*')
for i = 1, #keys do
  local name = string.sub(keys[i], #KEYS[1] + 1)
  if string.sub(name, 1, 8) ~= 'replica:' then redis.call('COPY', keys[i], KEYS[2] .. name) end
end
return #keys`;

function redisHarness(prefix: string): StoreHarness {
  return {
    open: () => openLedger(prefix),
    crashCopy: async () => {
      const copy = `t${++prefixes}:`;
      await redis.admin.eval(COPY, 2, prefix, copy);
      return redisHarness(copy);
    },
  };
}

ledgerContract('Redis', async () => redisHarness(`t${++prefixes}:`));
outboxContract('Redis', async () => redisHarness(`t${++prefixes}:`));

const update = (id: number, chatId = 1): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 1, chat: { id: chatId, type: 'private', first_name: 'A' }, from: { id: 2, is_bot: false, first_name: 'A' }, text: 'x' },
  }) as Update;

describe('RedisLedger across replicas', () => {
  it("a live replica's intents and inbox are its own; once its lease runs out, another takes them over and names the ones in doubt", async () => {
    const prefix = `t${++prefixes}:`;
    const first = await openLedger(prefix, { leaseMs: 300 });
    await first.accept(update(1));
    await first.accept(update(2));
    await first.begin(update(1));
    const second = await openLedger(prefix, { leaseMs: 300 });
    // Replica one is alive: nothing of its work is the second's.
    expect(await second.pending()).toEqual([]);
    expect(await second.inDoubt()).toEqual([]);
    // Replica one stops heartbeating (a kill -9 or a long pause) without cleaning up.
    await (first as unknown as { heartbeat: NodeJS.Timeout }).heartbeat.close();
    await expect.poll(async () => (await second.pending()).map((u) => u.update_id), { timeout: 5000, interval: 100 }).toEqual([1, 2]);
    expect(await second.inDoubt()).toEqual([1]);
    await second.close();
    await first.close();
  });

  it('state changes of one user from two replicas at once are both kept', async () => {
    const prefix = `t${++prefixes}:`;
    const [a, b] = await Promise.all([openLedger(prefix), openLedger(prefix)]);
    const plusOne = { type: 'set_state' as const, scope: 'user' as const, key: 'n', value: 1, increment: 1 };
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).commit(update(100 + i, i), { scope: { chatId: i, userId: 2 }, changes: [plusOne] })),
    );
    expect((await a.load({ chatId: 1, userId: 2 })).user).toEqual({ n: 40 });
    await a.close();
    await b.close();
  });

  it("a flow's timeout is committed by one replica only: another that decided on the same position finds it gone and writes nothing", async () => {
    const prefix = `t${++prefixes}:`;
    const [a, b] = await Promise.all([openLedger(prefix), openLedger(prefix)]);
    const scope = { chatId: 5, userId: 6 };
    const position = { flowId: 'survey', stepId: 'q', values: {}, lastActivity: 1 };
    await a.commit(update(1, 5), { scope, changes: [{ type: 'set_flow', flow: position }] });
    // Both replicas' timers fire and read the same open flow…
    const [seenByA, seenByB] = [await a.load(scope), await b.load(scope)];
    expect(seenByA.flow).toEqual(position);
    const leave = [
      { type: 'set_flow' as const, flow: null },
      { type: 'set_state' as const, scope: 'user' as const, key: 'timeouts', value: 1, increment: 1 },
    ];
    // …the first to commit leaving it wins; the second is told, and its changes (here a count) are not applied.
    expect(await a.commitState({ scope, changes: leave, flowWas: seenByA.flow })).toBe(true);
    expect(await b.commitState({ scope, changes: leave, flowWas: seenByB.flow })).toBe(false);
    expect(await b.load(scope)).toMatchObject({ flow: null, user: { timeouts: 1 } });
    expect(await a.flows()).toEqual([]);
    await a.close();
    await b.close();
  });

  it('Redis down: every operation fails with StoreUnavailableError at once; after a restart the ledger works again with what the AOF kept', async () => {
    const prefix = `t${++prefixes}:`;
    const ledger = await openLedger(prefix);
    await ledger.accept(update(7));
    await ledger.commit(update(6), { scope: { chatId: 1, userId: 2 }, changes: [{ type: 'set_state', scope: 'chat', key: 'k', value: 'v' }] });
    await redis.server.kill();
    await expect(ledger.accept(update(8))).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(ledger.seen(update(6))).rejects.toBeInstanceOf(StoreUnavailableError);
    await redis.server.start();
    await expect.poll(() => ledger.seen(update(6)).catch(() => 'down'), { timeout: 10_000, interval: 100 }).toBe(true);
    expect((await ledger.pending()).map((u) => u.update_id)).toEqual([7]);
    expect((await ledger.load({ chatId: 1, userId: 2 })).chat).toEqual({ k: 'v' });
    await ledger.close();
  });
});
