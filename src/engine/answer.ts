// Turns a matched rule into its decision: the rule's `set` becomes set_state actions and its reply is
// rendered with the variables as they are after them. Also the small builders every answer uses
// (a reply to the event's chat, a question that works in groups).
import type { Message } from '@grammyjs/types';
import type { Action, SendMessageAction } from './actions.js';
import type { Decision, DecideContext } from './decide-types.js';
import type { MessageEvent } from './events.js';
import type { MatchResult } from './match.js';
import { renderInlineKeyboard, renderReplyKeyboard } from './keyboards.js';
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
  const rendered = { ...base, vars: applied.values, ...flowOf(applied.values) };
  const actions: Action[] = [...applied.actions, ruleReply(rule, rendered, event.chat.id, message.message_id, context)];
  return { ruleId: rule.id, actions };
}

/**
 * A rule's reply as a message to `chatId`, with its keyboard: the reply keyboard (or its removal), else the
 * inline buttons unless they go on an edited message. `triggerId` is the message answered with reply_to_message.
 */
export function ruleReply(rule: CompiledRule, values: RenderValues, chatId: number, triggerId: number | undefined, context: DecideContext): SendMessageAction {
  const text = render(pickTemplate(rule.replies, context.random ?? Math.random), values, rule.parseMode);
  const markup = rule.keyboard
    ? renderReplyKeyboard(rule.keyboard, values)
    : rule.buttons && !rule.edit
      ? renderInlineKeyboard(rule.buttons, values)
      : undefined;
  return {
    type: 'send_message',
    chatId,
    text,
    ...(rule.parseMode ? { parseMode: rule.parseMode } : {}),
    ...(rule.replyToMessage && triggerId !== undefined ? { replyToMessageId: triggerId } : {}),
    ...(rule.disableNotification ? { disableNotification: true } : {}),
    ...(markup ? { replyMarkup: markup } : {}),
  };
}

function flowOf(values: VariableValues): Pick<RenderValues, 'flow'> {
  return values.flow ? { flow: values.flow } : {};
}

/** A plain text message to the chat. */
export function sendText(chatId: number, text: string): SendMessageAction {
  return { type: 'send_message', chatId, text };
}
