// Rule conditions (`chat_types`, `chats`, `topics`, `when` on variables, `open` hours, `lang`, `mentioned`): a rule whose condition
// fails does not answer, and the next matching rule in order may.
import type { Message } from '@grammyjs/types';
import type { CompiledRule } from './rule-set.js';
import { conditionsHold } from './variables.js';
import { topicOf } from './topics.js';

/** Whether a rule's `when` (and `lang`, `mentioned`) holds; decide judges it on the conversation state and the message, checks on assumptions. */
export type WhenCheck = (rule: CompiledRule) => boolean;

/** `when` judged on no state at all: only `exists: false` and `not` conditions hold. */
export const WHEN_ON_EMPTY_STATE: WhenCheck = (rule) => conditionsHold(rule.when, { user: {}, chat: {} });

export function conditionsPass(rule: CompiledRule, message: Message, whenHolds: WhenCheck = WHEN_ON_EMPTY_STATE): boolean {
  if (rule.chatTypes && !rule.chatTypes.has(message.chat.type)) return false;
  if (rule.chats && !rule.chats.has(message.chat.id)) return false;
  if (rule.topics && !rule.topics.has(topicOf(message) ?? 0)) return false;
  if ((rule.when || rule.open || rule.lang || rule.mentioned) && !whenHolds(rule)) return false;
  return true;
}
