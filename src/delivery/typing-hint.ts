// "typing…" for a slow reply: when the messages of one update are still going out a while after they began (a
// long split, a rate limit, a slow service), the chat is shown the bot typing (sendchataction), as a person would
// see it, instead of silence. One shared timer for all chats (timing/deadline-queue.ts): nothing per fast reply
// but a small entry marked finished.
import type { Action } from '../engine/actions.js';
import type { PerformActions } from '../pipeline/pipeline-options.js';
import type { DeadlineQueue, Expiring } from '../timing/deadline-queue.js';

/** One update's replies under way: shows typing in `chatId` unless finished before its time. */
export interface TypingHint extends Expiring {
  finished: boolean;
}

/** The chat the first message of `actions` goes to, if they send any. */
function replyChat(actions: readonly Action[]): number | undefined {
  for (const action of actions) if (action.type === 'send_message') return action.chatId;
  return undefined;
}

/** `perform`, showing typing (`show`) in the reply's chat when its messages take longer than the queue's timeout. */
export function withTyping(perform: PerformActions, queue: DeadlineQueue<TypingHint>, show: (chatId: number) => unknown): PerformActions {
  return (actions, context, signal) => {
    const chatId = replyChat(actions);
    if (chatId === undefined) return perform(actions, context, signal);
    const hint: TypingHint = { finished: false, expire: () => void show(chatId) };
    queue.add(hint);
    return perform(actions, context, signal).finally(() => {
      hint.finished = true;
    });
  };
}
