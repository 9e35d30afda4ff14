// The outbox room over the memory store, with performers that record what they are asked to do and a clock
// the test moves: effects are performed once, in their order key's order; a failure that may pass is tried
// again with back-off and given up after its time; a refusal is given up at once (logged); an effect too late
// is dropped (logged); an attempt a crash cut short is performed again and reported in doubt.
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { LocalChatSequencer } from '../../src/pipeline/chat-sequencer.js';
import type { NewEffect, StoredEffect } from '../../src/pipeline/outbox-port.js';
import { OutboxRoom, type EffectAttempt } from '../../src/pipeline/outbox.js';
import { MemoryStore, MemoryStoreData } from '../../src/store/memory/memory-store.js';
import { recordCapture } from '../support/log-capture.js';
import { createLogger } from '../../src/log/logger.js';

const T0 = 1_800_000_000_000;
const here = { chatId: 5, userId: 5 };
const effect = (id: string, extra: Partial<NewEffect> = {}): NewEffect => ({ id, kind: 'message', payload: { text: id }, dueAt: T0, ...extra });

interface Harness {
  room: OutboxRoom;
  store: MemoryStore;
  performed: string[];
  log: Array<Record<string, unknown>>;
  metrics: ServiceMetrics;
  clock: { now: number };
  /** Waits until the room has nothing in hand and no look running (a few event-loop turns). */
  settle(): Promise<void>;
}

const rooms: OutboxRoom[] = [];
afterEach(() => {
  for (const room of rooms.splice(0)) room.close();
});

function harness(
  answer: (effect: StoredEffect) => EffectAttempt | Promise<EffectAttempt> = () => ({ outcome: 'done' }),
  data = MemoryStoreData.create(),
): Harness {
  const clock = { now: T0 };
  const store = new MemoryStore(data);
  const performed: string[] = [];
  const { destination, lines: log } = recordCapture();
  const metrics = new ServiceMetrics({ processMetrics: false });
  const room = new OutboxRoom({
    outbox: store,
    sequencer: new LocalChatSequencer({ concurrency: 4 }),
    performers: {
      message: async (effect) => {
        performed.push(effect.id);
        return answer(effect);
      },
    },
    logger: createLogger({ level: 'debug', destination }),
    metrics,
    concurrency: 4,
    now: () => clock.now,
  });
  rooms.push(room);
  const settle = async () => {
    for (let i = 0; i < 50; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      if (room.inFlight === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { room, store, performed, log, metrics, clock, settle };
}

async function counted(metrics: ServiceMetrics): Promise<Record<string, number>> {
  const values = (await metrics.effects.get()).values;
  return Object.fromEntries(values.map((v) => [`${v.labels.kind}/${v.labels.outcome}`, v.value]));
}

describe('the outbox room', () => {
  it('performs due effects once each, those of one order key one after another in order, and not the ones due later', async () => {
    const h = harness();
    const staff = { orderKey: 'chat:-9' };
    await h.store.commitState({
      scope: here,
      changes: [],
      effects: [effect('a', staff), effect('b', staff), effect('c'), effect('later', { dueAt: T0 + 60_000 })],
    });
    h.room.wake();
    await h.settle();
    expect(h.performed.filter((id) => id !== 'c')).toEqual(['a', 'b']);
    expect(h.performed).toContain('c');
    expect(await h.store.outboxStats(T0)).toEqual({ pending: 1, due: 0, oldestDueAt: null });
    expect(await counted(h.metrics)).toEqual({ 'message/done': 3 });
    h.clock.now = T0 + 60_000;
    h.room.wake();
    await h.settle();
    expect(h.performed).toHaveLength(4);
  });

  it('tries a failure that may pass again after a back-off, and gives it up (logged) once past its give-up time', async () => {
    const h = harness(() => ({ outcome: 'retry', reason: 'Internal Server Error' }));
    await h.store.commitState({ scope: here, changes: [], effects: [effect('x', { giveUpAfterMs: 5000, source: 'complaint' })] });
    h.room.wake();
    await h.settle();
    expect(h.performed).toEqual(['x']);
    // The first back-off is a second: nothing before it, once after it.
    h.clock.now = T0 + 999;
    h.room.wake();
    await h.settle();
    expect(h.performed).toEqual(['x']);
    h.clock.now = T0 + 1000;
    h.room.wake();
    await h.settle();
    expect(h.performed).toEqual(['x', 'x']);
    // Next back-off 2 s (T0 + 3000), then 4 s: past the give-up time of T0 + 5000 → given up.
    h.clock.now = T0 + 3000;
    h.room.wake();
    await h.settle();
    expect(h.performed).toEqual(['x', 'x', 'x']);
    expect(await h.store.outboxStats(T0 + 10_000)).toMatchObject({ pending: 0 });
    expect(await counted(h.metrics)).toEqual({ 'message/retried': 2, 'message/failed': 1 });
    expect(h.log.find((l) => l.msg === 'effect given up')).toMatchObject({
      level: 50,
      effect: 'x',
      source: 'complaint',
      attempts: 3,
      reason: expect.stringMatching(/Internal Server Error \(gave up after 3 attempts\)/),
    });
  });

  it("waits a 429's retry_after, and gives a refusal up at once", async () => {
    const h = harness((e) =>
      e.id === 'limited'
        ? { outcome: 'retry', reason: '429', retryAfterMs: 7000 }
        : { outcome: 'failed', reason: 'Forbidden: bot was kicked from the group chat' },
    );
    await h.store.commitState({ scope: here, changes: [], effects: [effect('limited'), effect('refused')] });
    h.room.wake();
    await h.settle();
    expect(await h.store.nextDueAt()).toBe(T0 + 7000);
    expect(h.log.find((l) => l.msg === 'effect given up')).toMatchObject({ effect: 'refused', reason: 'Forbidden: bot was kicked from the group chat' });
  });

  it('drops an effect more than late_after late instead of performing it, and says so', async () => {
    const h = harness();
    await h.store.commitState({
      scope: here,
      changes: [],
      effects: [effect('reminder', { lateAfterMs: 3_600_000 }), effect('fresh', { lateAfterMs: 3_600_000, dueAt: T0 + 7_000_000 })],
    });
    h.clock.now = T0 + 7_200_000;
    h.room.wake();
    await h.settle();
    expect(h.performed).toEqual(['fresh']);
    expect(await counted(h.metrics)).toEqual({ 'message/late': 1, 'message/done': 1 });
    expect(h.log.find((l) => l.msg === 'effect dropped: it is too late to perform it')).toMatchObject({ effect: 'reminder', late_ms: 7_200_000 });
  });

  it('performs an attempt a crash cut short again, and reports it in doubt', async () => {
    const data = MemoryStoreData.create();
    const before = new MemoryStore(data);
    await before.commitState({ scope: here, changes: [], effects: [effect('cut')] });
    await before.claimDue(T0, 10);
    await before.beginEffect('cut');
    // The process dies here; the next run opens the same store.
    const h = harness(undefined, data.copy());
    h.room.wake();
    await h.settle();
    expect(h.performed).toEqual(['cut']);
    expect(await counted(h.metrics)).toEqual({ 'message/in_doubt': 1, 'message/done': 1 });
    expect(h.log.find((l) => String(l.msg).includes('may have happened twice'))).toMatchObject({ level: 40, effect: 'cut', attempts: 1 });
  });

  it('counts a throw as a retry, and a missing performer as a refusal', async () => {
    const h = harness(() => {
      throw new Error('socket hang up');
    });
    await h.store.commitState({ scope: here, changes: [], effects: [effect('thrown'), effect('odd', { kind: 'carrier-pigeon' })] });
    h.room.wake();
    await h.settle();
    expect(await counted(h.metrics)).toEqual({ 'message/retried': 1, 'carrier-pigeon/failed': 1 });
    expect(h.log.find((l) => l.effect === 'odd')).toMatchObject({ reason: 'no performer for effects of kind carrier-pigeon' });
  });
});
