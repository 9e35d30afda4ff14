// "typing…" for a slow reply (delivery/typing-hint.ts): shown once in the reply's chat when its messages are still
// going out after the queue's timeout, never for a reply that finished before it or for actions that send nothing.
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/engine/actions.js';
import type { PerformActions } from '../../src/pipeline/pipeline-options.js';
import { DeadlineQueue } from '../../src/timing/deadline-queue.js';
import { withTyping, type TypingHint } from '../../src/delivery/typing-hint.js';

const reply = (chatId: number): Action => ({ type: 'send_message', chatId, text: 'hi' }) as Action;
const context = { update: null, ruleId: 'r' };

function controlled(): { perform: PerformActions; finish(): void; calls: number } {
  let finish!: () => void;
  const state = {
    calls: 0,
    finish: () => finish(),
    perform: (() => {
      state.calls += 1;
      return new Promise((resolve) => (finish = () => resolve(null)));
    }) as PerformActions,
  };
  return state;
}

describe('typing hint', () => {
  it('shows typing in the reply chat once while its messages are still going out', async () => {
    const shown: number[] = [];
    const slow = controlled();
    const perform = withTyping(slow.perform, new DeadlineQueue<TypingHint>(20), (chat) => shown.push(chat));
    const done = perform([reply(42), reply(42)], context, new AbortController().signal);
    await expect.poll(() => shown, { timeout: 2000 }).toEqual([42]);
    slow.finish();
    await done;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(shown).toEqual([42]);
    expect(slow.calls).toBe(1);
  });

  it('shows nothing for a reply that finished in time, or for actions that send no message', async () => {
    const shown: number[] = [];
    const fast: PerformActions = () => Promise.resolve(null);
    const perform = withTyping(fast, new DeadlineQueue<TypingHint>(20), (chat) => shown.push(chat));
    for (let index = 0; index < 5; index++) await perform([reply(7)], context, new AbortController().signal);
    const slow = controlled();
    const silent = withTyping(slow.perform, new DeadlineQueue<TypingHint>(20), (chat) => shown.push(chat));
    const pending = silent([{ type: 'chat_action', chatId: 7, action: 'typing' } as Action], context, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 80));
    slow.finish();
    await pending;
    expect(shown).toEqual([]);
  });
});
