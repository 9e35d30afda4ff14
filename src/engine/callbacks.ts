// Decides what a button press does. The service shows a progress indicator on the pressed button until the
// bot answers, so every decision here answers the press exactly once: a press of an option of the user's
// current flow step chooses it; otherwise the first callback rule whose pattern finds the data (and whose
// conditions hold) answers, edits and replies; with no such rule the answer is empty.
import type { Chat, Message } from '@grammyjs/types';
import type { Action, AnswerCallbackAction } from './actions.js';
import { ruleReply } from './answer.js';
import { MAX_ANSWER_LENGTH } from './compile-actions.js';
import { conditionsPass } from './conditions.js';
import type { Decision, DecideContext } from './decide-types.js';
import type { CallbackQueryEvent } from './events.js';
import { routePress } from './flows.js';
import { renderInlineKeyboard } from './keyboards.js';
import { audienceCheck, languageFor } from './reach.js';
import { render, type RenderValues } from './render.js';
import type { CompiledRule, RuleSet } from './rule-set.js';
import type { ConversationState } from './state.js';
import { applyAssignments } from './variables.js';
import { sendEffects } from './sends.js';

/** A press's decision (see the module comment); `now` is the current time in ms since the epoch. */
export function decideCallbackQuery(event: CallbackQueryEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext, now: number): Decision {
  const message = pressMessage(event);
  const inFlow = routePress(event, ruleSet, state, message, now);
  if (inFlow) return inFlow;
  const data = event.data;
  if (data !== undefined) {
    const values = { user: state.user, chat: state.chat };
    for (const rule of ruleSet.callbacks) {
      if (!conditionsPass(rule, message, audienceCheck(message, values, languageFor(ruleSet, event.from, state), context.botUsername))) continue;
      const captures = callbackCaptures(rule, data);
      if (captures) return answerPress(rule, captures, event, message, state, context, ruleSet);
    }
  }
  return { ruleId: null, actions: [answerOf(event)] };
}

/** The captures of a callback rule's pattern in `data` (0 = the whole match), or undefined when it does not match. */
export function callbackCaptures(rule: CompiledRule, data: string): Map<number | string, string | null> | undefined {
  if (rule.trigger.kind !== 'callback') return undefined;
  return rule.trigger.pattern.captures(data);
}

/**
 * What templates and conditions see of a press: the presser as the sender, the chat of the button's message
 * (the presser's private chat for a button on an inline-mode message), and the data as the text.
 */
function pressMessage(event: CallbackQueryEvent): Message {
  const chat: Chat = event.chat ?? { id: event.from.id, type: 'private', first_name: event.from.first_name };
  return { message_id: event.message?.message_id ?? 0, date: 0, chat, from: event.from, text: event.data ?? '' } as Message;
}

function answerOf(event: CallbackQueryEvent, text?: string, alert?: boolean): AnswerCallbackAction {
  return {
    type: 'answer_callback',
    callbackQueryId: event.id,
    ...(text !== undefined && text !== '' ? { text: [...text].slice(0, MAX_ANSWER_LENGTH).join('') } : {}),
    ...(alert && text ? { showAlert: true } : {}),
  };
}

/**
 * A callback rule's decision: its `set`, then the answer (first, so the button stops spinning at once), the
 * edit of the button's message, and the reply to its chat. A button on an inline-mode message, or on a
 * message too old for the bot to see, has no chat message to edit or reply in.
 */
function answerPress(
  rule: CompiledRule,
  captures: ReadonlyMap<number | string, string | null>,
  event: CallbackQueryEvent,
  message: Message,
  state: ConversationState,
  context: DecideContext,
  ruleSet: RuleSet,
): Decision {
  const base = { message, captures };
  const applied = applyAssignments(rule.set, { user: state.user, chat: state.chat }, base, true);
  const values: RenderValues = { ...base, vars: applied.values };
  const actions: Action[] = [...applied.actions, answerOf(event, rule.answer ? render(rule.answer, values) : undefined, rule.alert)];
  // An inaccessible message (date 0) is one the bot can no longer edit.
  const held = event.chat && event.message && event.message.date !== 0 ? event.message : undefined;
  if (rule.edit && held) {
    actions.push({
      type: 'edit_message_text',
      chatId: held.chat.id,
      messageId: held.message_id,
      text: render(rule.edit, values, rule.parseMode),
      ...(rule.parseMode ? { parseMode: rule.parseMode } : {}),
      ...(rule.buttons ? { replyMarkup: renderInlineKeyboard(rule.buttons, values) } : {}),
    });
  }
  const language = languageFor(ruleSet, event.from, applied.values);
  if (rule.replies.length > 0 && event.chat) actions.push(ruleReply(rule, values, event.chat.id, held?.message_id, context, language));
  if (rule.sends.length > 0) actions.push(...sendEffects(rule.sends, values, context, language));
  return { ruleId: rule.id, actions };
}
