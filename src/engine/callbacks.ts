// Decides what a button press does. The service shows a progress indicator on the pressed button until the
// bot answers, so every decision here answers the press exactly once: a press of an option of the user's
// current flow step chooses it; otherwise the first callback rule whose pattern finds the data (and whose
// conditions hold) answers, edits and replies; with no such rule the answer is empty.
import type { Chat, Message } from '@grammyjs/types';
import type { Action, AnswerCallbackAction } from './actions.js';
import { ruleReplies } from './answer.js';
import type { BackendResult } from './backend-calls.js';
import { renderRequest } from './compile-calls.js';
import type { ReplyParts } from './compile-rule-calls.js';
import { notifyEffects } from './notifies.js';
import { branchHandoff, branchValues, pickBranch } from './rule-calls.js';
import { MAX_ANSWER_LENGTH } from './compile-actions.js';
import { conditionsPass } from './conditions.js';
import type { Decision, DecideContext } from './decide-types.js';
import type { CallbackQueryEvent } from './events.js';
import { routePress } from './flows.js';
import { renderInlineKeyboard } from './keyboards.js';
import { audienceCheck, languageFor } from './reach.js';
import { render, type RenderValues } from './render.js';
import type { CompiledRule, RuleSet } from './rule-set.js';
import { variablesOf, type ConversationState } from './state.js';
import { applyAssignments, type VariableValues } from './variables.js';
import { sendEffects } from './sends.js';
import { pressSuggestion } from './suggest-decide.js';
import { startHandoff, topicLinkValue } from './handoff.js';
import { moderatePress } from './moderation.js';
import { combineModeration } from './compile-moderation.js';
import { reminderActions } from './reminders.js';

/** A press's decision (see the module comment); `now` is the current time in ms since the epoch. */
export function decideCallbackQuery(event: CallbackQueryEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext, now: number): Decision {
  const message = pressMessage(event);
  const inFlow = routePress(event, ruleSet, state, message, now, context);
  if (inFlow) return inFlow;
  const suggestion = ruleSet.suggestions ? pressSuggestion(event, ruleSet, state, context) : undefined;
  if (suggestion) return suggestion;
  const data = event.data;
  if (data !== undefined) {
    const values = variablesOf(state);
    for (const rule of ruleSet.callbacks) {
      if (!conditionsPass(rule, message, audienceCheck(message, values, languageFor(ruleSet, event.from, state), context.botUsername, now))) continue;
      const captures = callbackCaptures(rule, data);
      if (captures) return answerPress(rule, captures, event, message, state, { context, ruleSet, now });
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
 * message too old for the bot to see, has no chat message to edit or reply in. A rule with a `call` answers
 * the press from the branch its outcome picks (with an empty answer when none does).
 */
function answerPress(
  rule: CompiledRule,
  captures: ReadonlyMap<number | string, string | null>,
  event: CallbackQueryEvent,
  message: Message,
  state: ConversationState,
  { context, ruleSet, now }: { context: DecideContext; ruleSet: RuleSet; now: number },
): Decision {
  const base = { message, captures, now };
  const applied = applyAssignments(rule.set, variablesOf(state), base, true);
  const values: RenderValues = { ...base, vars: applied.values };
  if (context.handoff) values.topicLink = topicLinkValue(applied.values.user, context)!;
  const language = languageFor(ruleSet, event.from, applied.values);
  // A press can hand its user off too (the rule, or its call's branch): the chat so far ends with the message that
  // held the button. The topic opens before the press's sends, which may link to it.
  const held = event.chat && event.message && event.message.date !== 0 ? (event.message as Message) : undefined;
  if (rule.call) {
    const call = rule.call;
    const before: Action[] = [...applied.actions];
    if (rule.sends.length > 0) before.push(...sendEffects(rule.sends, values, context, language));
    if (rule.notifies) before.push(...notifyEffects(rule.notifies, values, context, event.chat?.id ?? null));
    if (event.chat) before.push(...reminderActions(rule.reminders, values, event.chat.id, event.from.id, now));
    const site = {
      rendered: values,
      applied,
      event: { message, chat: message.chat, from: event.from },
      language,
      languageOf: (vars: VariableValues) => languageFor(ruleSet, event.from, vars),
    };
    const resume = (result: BackendResult): Decision => {
      const branch = pickBranch(call.on, result);
      // The rule's moderation whatever the outcome, with the branch's.
      const moderation = combineModeration(rule.moderation, branch?.moderation);
      if (!branch) return { ruleId: rule.id, actions: moderatePress([answerOf(event)], moderation, event.chat?.id, event.from.id, now) };
      const chosen = branchValues(branch, result, site);
      const handing = branch.handoff && held ? branchHandoff(branch, { ...held, from: event.from } as Message, rule.id, chosen.applied.values, context, 0) : [];
      const pressed = moderatePress(pressActions(branch, chosen.values, event, context, chosen.language), moderation, event.chat?.id, event.from.id, now);
      const actions = [...chosen.applied.actions, ...handing, ...pressed];
      if (branch.notifies.length > 0) actions.push(...notifyEffects(branch.notifies, chosen.values, context, event.chat?.id ?? null));
      return { ruleId: rule.id, actions };
    };
    return { ruleId: rule.id, actions: before, call: { request: renderRequest(call.request, values), resume } };
  }
  const handing = rule.handoff === 'start' && held ? startHandoff({ ...held, from: event.from } as Message, rule.id, applied.values, context) : [];
  const pressed = moderatePress(pressActions(rule, values, event, context, language), rule.moderation, event.chat?.id, event.from.id, now);
  const actions: Action[] = [...applied.actions, ...handing, ...pressed];
  if (rule.notifies) actions.push(...notifyEffects(rule.notifies, values, context, event.chat?.id ?? null));
  if (event.chat) actions.push(...reminderActions(rule.reminders, values, event.chat.id, event.from.id, now));
  return { ruleId: rule.id, actions };
}

/** The answer to the press, the edit of the button's message, the reply to its chat and the sends, as `parts` say. */
function pressActions(
  parts: ReplyParts & Pick<CompiledRule, 'sends'>,
  values: RenderValues,
  event: CallbackQueryEvent,
  context: DecideContext,
  language: string | undefined,
): Action[] {
  const actions: Action[] = [answerOf(event, parts.answer ? render(parts.answer, values) : undefined, parts.alert)];
  // An inaccessible message (date 0) is one the bot can no longer edit.
  const held = event.chat && event.message && event.message.date !== 0 ? event.message : undefined;
  if (parts.edit && held) {
    actions.push({
      type: 'edit_message_text',
      chatId: held.chat.id,
      messageId: held.message_id,
      text: render(parts.edit, values, parts.parseMode),
      ...(parts.parseMode ? { parseMode: parts.parseMode } : {}),
      ...(parts.buttons ? { replyMarkup: renderInlineKeyboard(parts.buttons, values) } : {}),
    });
  }
  if ((parts.replies.length > 0 || parts.messages || parts.media) && event.chat)
    actions.push(...ruleReplies(parts, values, event.chat.id, held?.message_id, context, language));
  if (parts.sends.length > 0) actions.push(...sendEffects(parts.sends, values, context, language));
  return actions;
}
