// The pure engine entry: one message and the current rule set in, the reply to send (or null) out.
// No I/O here; the delivery layer sends the reply. Callers read the live rule set once per message
// and pass it in, so a reload in the middle never mixes two sets.
import type { Message } from '@grammyjs/types';
import { matchMessage } from './match.js';
import { pickTemplate, render } from './render.js';
import type { OutgoingReply } from './reply.js';
import type { RuleSet } from './rule-set.js';

export { matchMessage, type MatchResult } from './match.js';

export function respond(message: Message, rules: RuleSet, botUsername: string, random: () => number = Math.random): OutgoingReply | null {
  const match = matchMessage(message, rules, botUsername);
  if (!match) return null;
  const { rule } = match;
  const text = render(
    pickTemplate(rule.replies, random),
    { message, ...(match.args !== undefined ? { args: match.args } : {}), ...(match.captures ? { captures: match.captures } : {}) },
    rule.parseMode,
  );
  return {
    ruleId: rule.id,
    chatId: message.chat.id,
    text,
    ...(rule.parseMode ? { parseMode: rule.parseMode } : {}),
    ...(rule.replyToMessage ? { replyToMessageId: message.message_id } : {}),
    ...(rule.disableNotification ? { disableNotification: true } : {}),
  };
}
