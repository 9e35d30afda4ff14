// Rule conditions (`chat_types`, `chats`): a rule whose condition fails does not answer, and the next
// matching rule in order may.
import type { Message } from '@grammyjs/types';
import type { CompiledRule } from './rule-set.js';

export function conditionsPass(rule: CompiledRule, message: Message): boolean {
  if (rule.chatTypes && !rule.chatTypes.has(message.chat.type)) return false;
  if (rule.chats && !rule.chats.has(message.chat.id)) return false;
  return true;
}
