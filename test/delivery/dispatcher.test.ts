import { describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import type { Update } from '../../src/api/types.js';
import { DispatchAbortedError, UpdateDispatcher } from '../../src/delivery/dispatcher.js';
import { MemoryHandledUpdates } from '../../src/delivery/handled-updates.js';
import { createLogger } from '../../src/log/logger.js';

const logger = createLogger({ level: 'silent' });
let nextId = 1;
const update = (chatId: number, text = 'x'): Update =>
  ({ update_id: nextId++, message: { message_id: nextId, date: 0, chat: { id: chatId, type: 'private', first_name: 'U' }, text } }) as Update;

describe('UpdateDispatcher', () => {
  it('handles one chat in arrival order and many chats concurrently, never more than the bound', async () => {
    const handled = new Map<number, string[]>();
    let active = 0;
    let peak = 0;
    const dispatcher = new UpdateDispatcher({
      concurrency: 4,
      logger,
      handler: async (u) => {
        active += 1;
        peak = Math.max(peak, active);
        // Random pauses shuffle completion order across chats; order within a chat must survive.
        await delay(Math.floor(Math.random() * 4));
        const chat = u.message!.chat.id;
        handled.set(chat, [...(handled.get(chat) ?? []), u.message!.text!]);
        active -= 1;
      },
    });
    const all: Promise<void>[] = [];
    for (let i = 0; i < 10; i++) for (let chat = 1; chat <= 12; chat++) all.push(dispatcher.dispatch(update(chat, `m${i}`)));
    expect(dispatcher.inFlight).toBe(120);
    await Promise.all(all);
    expect(dispatcher.inFlight).toBe(0);
    expect(peak).toBeLessThanOrEqual(4);
    expect(peak).toBeGreaterThan(1);
    for (let chat = 1; chat <= 12; chat++) expect(handled.get(chat)).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`));
  });

  it('lets every running handler wait on the shared abort signal without a MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const dispatcher = new UpdateDispatcher({
        concurrency: 32,
        logger,
        // A request, a backoff and a rate-limit wait at once, as the reply sender can have.
        handler: async (_u, signal) => {
          await Promise.all([delay(5, undefined, { signal }), delay(6, undefined, { signal }), delay(7, undefined, { signal })]);
        },
      });
      await Promise.all(Array.from({ length: 64 }, (_, i) => dispatcher.dispatch(update(1000 + i))));
      await delay(10); // warnings are emitted on the next tick
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a busy chat does not starve another one with a single slot', async () => {
    const order: number[] = [];
    const dispatcher = new UpdateDispatcher({ concurrency: 1, logger, handler: async (u) => void order.push(u.message!.chat.id) });
    const all = [1, 1, 1, 1].map((c) => dispatcher.dispatch(update(c)));
    all.push(dispatcher.dispatch(update(2)));
    await Promise.all(all);
    expect(order.indexOf(2)).toBeLessThan(order.length - 1);
  });

  it('a failing handler does not stall its chat: the update counts as dropped and the next one runs', async () => {
    const seen: string[] = [];
    const dispatcher = new UpdateDispatcher({
      concurrency: 2,
      logger,
      handler: async (u) => {
        if (u.message!.text === 'boom') throw new Error('bug');
        seen.push(u.message!.text!);
      },
    });
    await Promise.all([dispatcher.dispatch(update(1, 'boom')), dispatcher.dispatch(update(1, 'after'))]);
    expect(seen).toEqual(['after']);
  });

  it('drain waits for work in flight; at the deadline it aborts and unfinished updates reject', async () => {
    const dispatcher = new UpdateDispatcher({
      concurrency: 1,
      logger,
      handler: async (u, signal) => {
        if (u.message!.text === 'slow') await delay(60_000, undefined, { signal });
      },
    });
    const quick = dispatcher.dispatch(update(1, 'quick'));
    const slow = dispatcher.dispatch(update(1, 'slow'));
    const queued = dispatcher.dispatch(update(1, 'queued'));
    await quick;
    expect(await dispatcher.drain(50)).toBe(false);
    await expect(slow).rejects.toBeInstanceOf(DispatchAbortedError);
    await expect(queued).rejects.toBeInstanceOf(DispatchAbortedError);
    await expect(dispatcher.dispatch(update(1))).rejects.toBeInstanceOf(DispatchAbortedError);
    expect(dispatcher.inFlight).toBe(0);

    const calm = new UpdateDispatcher({ concurrency: 2, logger, handler: () => delay(20) });
    const done = calm.dispatch(update(3));
    expect(await calm.drain(5_000)).toBe(true);
    await done;
  });
});

describe('MemoryHandledUpdates', () => {
  it('remembers ids up to its capacity, forgetting the oldest first', () => {
    const handled = new MemoryHandledUpdates(3);
    for (const id of [1, 2, 3, 4]) handled.add(id);
    expect([1, 2, 3, 4].map((id) => handled.has(id))).toEqual([false, true, true, true]);
    expect(handled.size).toBe(3);
  });
});
