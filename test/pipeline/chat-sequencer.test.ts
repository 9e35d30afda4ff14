// The in-process per-chat sequencer: order within a chat key (messages, button presses and member events of
// one chat share it), concurrency across keys up to the bound, no starvation, drain and abort on shutdown.
import { describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import type { Update } from '../../src/api/types.js';
import { chatKeyOf } from '../../src/engine/events.js';
import { LocalChatSequencer } from '../../src/pipeline/chat-sequencer.js';
import { SequenceAbortedError } from '../../src/pipeline/ports.js';

let nextId = 1;
const update = (chatId: number, text = 'x'): Update =>
  ({ update_id: nextId++, message: { message_id: nextId, date: 0, chat: { id: chatId, type: 'private', first_name: 'U' }, text } }) as Update;

/** Runs `handler` for each update in its chat's turn, as the pipeline does. */
class UpdateDispatcher {
  readonly sequencer: LocalChatSequencer;
  constructor(private readonly options: { concurrency: number; handler: (u: Update, signal: AbortSignal) => Promise<void> }) {
    this.sequencer = new LocalChatSequencer({ concurrency: options.concurrency });
  }
  dispatch(u: Update): Promise<void> {
    return this.sequencer.run(chatKeyOf(u), (signal) => this.options.handler(u, signal));
  }
  get inFlight() {
    return this.sequencer.inFlight;
  }
  drain(deadlineMs: number) {
    return this.sequencer.drain(deadlineMs);
  }
}
const DispatchAbortedError = SequenceAbortedError;

describe('UpdateDispatcher', () => {
  it('handles one chat in arrival order and many chats concurrently, never more than the bound', async () => {
    const handled = new Map<number, string[]>();
    let active = 0;
    let peak = 0;
    const dispatcher = new UpdateDispatcher({
      concurrency: 4,
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
        // A request, a backoff and a rate-limit wait at once, as the reply sender can have.
        handler: async (_u, signal) => {
          await Promise.all([delay(5, undefined, { signal }), delay(6, undefined, { signal }), delay(7, undefined, { signal })]);
        },
      });
      await Promise.all(Array.from({ length: 64 }, (_, i) => dispatcher.dispatch(update(1000 + i))));
      // Warnings are emitted on a later tick: let the event loop turn twice.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a busy chat does not starve another one with a single slot', async () => {
    const order: number[] = [];
    const dispatcher = new UpdateDispatcher({ concurrency: 1, handler: async (u) => void order.push(u.message!.chat.id) });
    const all = [1, 1, 1, 1].map((c) => dispatcher.dispatch(update(c)));
    all.push(dispatcher.dispatch(update(2)));
    await Promise.all(all);
    expect(order.indexOf(2)).toBeLessThan(order.length - 1);
  });

  it('a failing task does not stall its chat: its run rejects with the error and the next one runs', async () => {
    const seen: string[] = [];
    const dispatcher = new UpdateDispatcher({
      concurrency: 2,
      handler: async (u) => {
        if (u.message!.text === 'boom') throw new Error('bug');
        seen.push(u.message!.text!);
      },
    });
    const results = await Promise.allSettled([dispatcher.dispatch(update(1, 'boom')), dispatcher.dispatch(update(1, 'after'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect(seen).toEqual(['after']);
  });

  it('drain waits for work in flight; at the deadline it aborts and unfinished updates reject', async () => {
    const dispatcher = new UpdateDispatcher({
      concurrency: 1,
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

    const calm = new UpdateDispatcher({ concurrency: 2, handler: () => delay(20) });
    const done = calm.dispatch(update(3));
    expect(await calm.drain(5_000)).toBe(true);
    await done;
  });
});

describe('chat keys', () => {
  it('orders a button press and a member event behind the messages of their chat, and runs another chat meanwhile', async () => {
    const chat = { id: -100, type: 'group', title: 'G' };
    const user = { id: 7, is_bot: false, first_name: 'A' };
    let release!: () => void;
    const held = { promise: new Promise<void>((resolve) => (release = resolve)) };
    const order: string[] = [];
    const dispatcher = new UpdateDispatcher({
      concurrency: 4,
      handler: async (u) => {
        if (u.update_id === 1) await held.promise;
        order.push(String(u.update_id));
      },
    });
    const all = [
      { update_id: 1, message: { message_id: 1, date: 0, chat, from: user, text: 'slow' } },
      { update_id: 2, callback_query: { id: 'q', from: user, chat_instance: 'c', data: 'd', message: { message_id: 1, date: 0, chat, text: 'menu' } } },
      { update_id: 3, message: { message_id: 2, date: 0, chat, from: user, new_chat_members: [user] } },
      { update_id: 4, message: { message_id: 3, date: 0, chat: { id: 5, type: 'private', first_name: 'B' }, text: 'other chat' } },
    ].map((u) => dispatcher.dispatch(u as Update));
    await all[3];
    expect(order).toEqual(['4']);
    release();
    await Promise.all(all);
    expect(order).toEqual(['4', '1', '2', '3']);
  });
});

describe('LocalChatSequencer.runsAtOnce', () => {
  it("says a key's task would start at once only while nothing of the key is in hand and a slot is free", async () => {
    const sequencer = new LocalChatSequencer({ concurrency: 2 });
    const ends: Array<() => void> = [];
    const task = () => new Promise<void>((resolve) => ends.push(resolve));
    expect(sequencer.runsAtOnce('chat:1')).toBe(true);
    const first = sequencer.run('chat:1', task);
    expect(sequencer.runsAtOnce('chat:1')).toBe(false);
    expect(sequencer.runsAtOnce('chat:2')).toBe(true);
    const second = sequencer.run('chat:2', task);
    // Both slots taken: another chat would wait for one.
    expect(sequencer.runsAtOnce('chat:3')).toBe(false);
    ends.shift()!();
    await first;
    expect(sequencer.runsAtOnce('chat:1')).toBe(true);
    expect(sequencer.runsAtOnce('chat:2')).toBe(false);
    ends.shift()!();
    await second;
    expect(sequencer.runsAtOnce('chat:2')).toBe(true);
  });
});
