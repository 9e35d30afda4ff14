// Turns a matched rule into its decision: the rule's `set` becomes set_state actions and its reply is
// rendered with the variables as they are after them. Also the small builders every answer uses
// (a reply to the event's chat, a question that works in groups).
import type { Message } from '@grammyjs/types';
import type { Action, SendMessageAction } from './actions.js';
import type { Decision, DecideContext } from './decide-types.js';
import type { MessageEvent } from './events.js';
import type { MatchResult } from './match.js';
import { pickTemplate, render, type RenderValues } from './render.js';
import type { CompiledRule } from './rule-set.js';
import { applyAssignments, type VariableValues } from './variables.js';

/** What a template of this match can read from the message (the variables are added by the caller). */
export function messageValues(message: Message, match?: MatchResult): Omit<RenderValues, 'vars' | 'flow'> {
  return {
    message,
    ...(match?.args !== undefined ? { args: match.args } : {}),
    ...(match?.captures ? { captures: match.captures } : {}),
  };
}

/** The rule's decision for a message it matched: its `set` (state changes first), then its reply. */
export function answerRule(rule: CompiledRule, match: MatchResult, event: MessageEvent, values: VariableValues, context: DecideContext): Decision {
  const { message } = event;
  const base = messageValues(message, match);
  const applied = applyAssignments(rule.set, values, base, event.from !== undefined);
  const text = render(pickTemplate(rule.replies, context.random ?? Math.random), { ...base, vars: applied.values, ...flowOf(applied.values) }, rule.parseMode);
  const send: SendMessageAction = {
    type: 'send_message',
    chatId: event.chat.id,
    text,
    ...(rule.parseMode ? { parseMode: rule.parseMode } : {}),
    ...(rule.replyToMessage ? { replyToMessageId: message.message_id } : {}),
    ...(rule.disableNotification ? { disableNotification: true } : {}),
  };
  const actions: Action[] = [...applied.actions, send];
  return { ruleId: rule.id, actions };
}

function flowOf(values: VariableValues): Pick<RenderValues, 'flow'> {
  return values.flow ? { flow: values.flow } : {};
}

/** A plain text message to the chat. */
export function sendText(chatId: number, text: string): SendMessageAction {
  return { type: 'send_message', chatId, text };
}

/**
 * A flow's question. In a group it replies to the user's message and asks for a reply from that user
 * only (force_reply, selective): with privacy mode on, a bot sees only replies to its messages, so the
 * answer could not reach it otherwise, and other members' clients are not switched to reply mode.
 */
export function askText(event: MessageEvent | undefined, chatId: number, text: string): SendMessageAction {
  if (!event || event.chat.type === 'private') return sendText(chatId, text);
  return { ...sendText(chatId, text), replyToMessageId: event.message.message_id, replyMarkup: { force_reply: true, selective: true } };
}
