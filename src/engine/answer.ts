// Turns a matched rule into its decision: the rule's `set` becomes set_state actions and its reply is
// rendered with the variables as they are after them. Also the small builders every answer uses
// (a reply to the event's chat, a question that works in groups).
import type { Message } from '@grammyjs/types';
import type { Action, SendMediaAction, SendMessageAction } from './actions.js';
import type { Decision, DecideContext } from './decide-types.js';
import type { MessageEvent } from './events.js';
import { templatesFor } from './languages.js';
import type { MatchResult } from './match.js';
import { renderInlineKeyboard, renderReplyKeyboard } from './keyboards.js';
import { renderMedia, type CompiledMedia } from './media.js';
import { pickTemplate, render, type RenderValues } from './render.js';
import type { CompiledRule } from './rule-set.js';
import { applyAssignments, type VariableValues } from './variables.js';
import { moderateAround } from './moderation.js';
import { relayEffects, sendEffects } from './sends.js';
import { notifyEffects } from './notifies.js';
import { callRule } from './rule-calls.js';
import type { ReplyParts } from './compile-rule-calls.js';
import { endHandoff, isHandedOff, startHandoff, topicLinkValue } from './handoff.js';
import { reminderActions } from './reminders.js';

/** What a template of this match can read from the message (the variables are added by the caller). */
export function messageValues(message: Message, match?: MatchResult, now?: number): Omit<RenderValues, 'vars' | 'flow'> {
  // Built field by field (no spreads): this runs for every message answered.
  const values: RenderValues = { message };
  if (now !== undefined) values.now = now;
  if (match?.args !== undefined) values.args = match.args;
  if (match?.captures) values.captures = match.captures;
  return values;
}

/**
 * The rule's decision for a message it matched: its `set` (state changes first), then its reply (or each of
 * its `messages`, in order), in the user's language (`languageOf` the variables after the set) when given per language.
 */
export function answerRule(
  rule: CompiledRule,
  match: MatchResult,
  event: { readonly message: Message; readonly chat: MessageEvent['chat']; readonly from?: MessageEvent['from'] },
  values: VariableValues,
  context: DecideContext,
  languageOf?: (values: VariableValues) => string | undefined,
): Decision {
  const { message } = event;
  const base = messageValues(message, match, context.now?.());
  const applied = applyAssignments(rule.set, values, base, event.from !== undefined);
  // The message's values are this call's own: completed in place rather than copied.
  const rendered = base as RenderValues;
  rendered.vars = applied.values;
  if (applied.values.flow) rendered.flow = applied.values.flow;
  if (context.handoff) rendered.topicLink = topicLinkValue(applied.values.user, context)!;
  // After the rule's set: a rule that stores the user's language choice already answers in it.
  const language = languageOf?.(applied.values);
  // A member event has no message of its own to reply to (message_id 0).
  const triggerId = message.message_id > 0 ? message.message_id : undefined;
  if (rule.call) return callRule(rule, rule.call, { event, rendered, applied, triggerId, context, language, ...(languageOf ? { languageOf } : {}) });
  // A rule may only act (set, send, moderate) without replying.
  const hasReply = rule.replies.length > 0 || rule.messages !== undefined || rule.media !== null;
  let replies: Action[] = hasReply ? ruleReplies(rule, rendered, event.chat.id, triggerId, context, language) : [];
  // Moderation acts on the chat around the replies: the message deleted (or the member muted) before, the reply pinned after.
  if (rule.moderation) {
    const target = { chatId: event.chat.id, messageId: triggerId ?? 0, userId: event.from?.id };
    replies = moderateAround(replies, rule.moderation, target, (context.now ?? Date.now)());
  }
  // The topic opens before the sends, which may link to it; the rule's messages in the chat are part of the chat so far.
  if (rule.handoff === 'start') {
    const answered = replies.filter((action) => action.type === 'send_message').length;
    replies.push(...startHandoff(message, rule.id, applied.values, context, answered));
  } else if (rule.handoff === 'end' && isHandedOff(applied.values)) replies.push(...endHandoff(event.chat.id, applied.values, context, 'the customer left'));
  // Messages to other chats and notifications to backends go to the outbox, committed with the update and sent after it.
  if (rule.sends.length > 0) replies.push(...sendEffects(rule.sends, rendered, context, language));
  if (rule.notifies) replies.push(...notifyEffects(rule.notifies, rendered, context, event.chat.id));
  if (rule.relays.length > 0 && triggerId !== undefined) replies.push(...relayEffects(rule.relays, message, context));
  replies.push(...reminderActions(rule.reminders, rendered, event.chat.id, event.from?.id, rendered.now ?? Date.now()));
  return { ruleId: rule.id, actions: applied.actions.length === 0 ? replies : [...applied.actions, ...replies] };
}

/**
 * A rule's reply as messages to `chatId`: its one reply, or each of its `messages` in order, each with its own
 * options; a message's text goes before its media. The rule's keyboard or buttons go with the last message that
 * can carry them (an album carries none). Only the first message answers the trigger as a reply.
 */
export function ruleReplies(
  rule: ReplyParts,
  values: RenderValues,
  chatId: number,
  triggerId: number | undefined,
  context: DecideContext,
  language?: string,
): ReplyAction[] {
  // The common case first, as it was: one text reply.
  if (!rule.messages && !rule.media) return rule.replies.length > 0 ? [ruleReply(rule, values, chatId, triggerId, context, language)] : [];
  if (!rule.messages) {
    const text = rule.replies.length > 0 ? ruleReply(rule, values, chatId, triggerId, context, language, false) : undefined;
    return withMedia(text, rule.media!, rule, values, chatId, text ? undefined : triggerId, ruleMarkup(rule, values));
  }
  const last = rule.messages.length - 1;
  const actions: ReplyAction[] = [];
  for (const [i, item] of rule.messages.entries()) {
    const markup = (item.keyboard ?? item.buttons) ? ruleMarkup(item, values) : i === last ? ruleMarkup(rule, values) : undefined;
    const text = item.texts ? render(pickTemplate(templatesFor(item.texts, language), context.random ?? Math.random), values, item.parseMode) : undefined;
    const reply = text === undefined ? undefined : sendMessage(chatId, text, item, triggerId, item.media ? undefined : markup);
    actions.push(...(item.media ? withMedia(reply, item.media, item, values, chatId, reply ? undefined : triggerId, markup) : reply ? [reply] : []));
  }
  return actions;
}

/** A text (if any) followed by media; the markup goes on the media, or on the text when the media is an album. */
function withMedia(
  text: SendMessageAction | undefined,
  media: CompiledMedia,
  options: Pick<ReplyParts, 'replyToMessage' | 'disableNotification'>,
  values: RenderValues,
  chatId: number,
  triggerId: number | undefined,
  markup: SendMessageAction['replyMarkup'],
): ReplyAction[] {
  const album = media.media.kind === 'album';
  const first = text && album && markup ? { ...text, replyMarkup: markup } : text;
  const sent = sendMediaAction(chatId, media, values, options, triggerId, album ? undefined : markup);
  return first ? [first, sent] : [sent];
}

/** The media of a rule, a message, a step or a done branch as a send_media action to `chatId`. */
export function sendMediaAction(
  chatId: number,
  compiled: CompiledMedia,
  values: RenderValues,
  options: Partial<Pick<ReplyParts, 'replyToMessage' | 'disableNotification'>>,
  triggerId: number | undefined,
  markup?: SendMessageAction['replyMarkup'],
): SendMediaAction {
  const { media, caption } = renderMedia(compiled, values);
  const action: { -readonly [K in keyof SendMediaAction]: SendMediaAction[K] } = { type: 'send_media', chatId, media };
  if (caption !== undefined) action.caption = caption;
  if (compiled.parseMode && (caption !== undefined || media.kind === 'album')) action.parseMode = compiled.parseMode;
  if (options.replyToMessage && triggerId !== undefined) action.replyToMessageId = triggerId;
  if (options.disableNotification) action.disableNotification = true;
  if (markup) action.replyMarkup = markup;
  return action;
}

/**
 * A rule's reply as a message to `chatId`, with its keyboard: the reply keyboard (or its removal), else the
 * inline buttons unless they go on an edited message. `triggerId` is the message answered with reply_to_message.
 */
export function ruleReply(
  rule: ReplyParts,
  values: RenderValues,
  chatId: number,
  triggerId: number | undefined,
  context: DecideContext,
  language?: string,
  withMarkup = true,
): SendMessageAction {
  const alternatives = rule.localizedReplies ? templatesFor(rule.localizedReplies, language) : rule.replies;
  const text = render(pickTemplate(alternatives, context.random ?? Math.random), values, rule.parseMode);
  return sendMessage(chatId, text, rule, triggerId, withMarkup ? ruleMarkup(rule, values) : undefined);
}

/** What a rule's answer sends: messages and media. */
export type ReplyAction = SendMessageAction | SendMediaAction;

function ruleMarkup(rule: Pick<ReplyParts, 'keyboard' | 'buttons'> & { edit?: ReplyParts['edit'] }, values: RenderValues): SendMessageAction['replyMarkup'] {
  if (rule.keyboard) return renderReplyKeyboard(rule.keyboard, values);
  return rule.buttons && !rule.edit ? renderInlineKeyboard(rule.buttons, values) : undefined;
}

function sendMessage(
  chatId: number,
  text: string,
  options: Pick<ReplyParts, 'parseMode' | 'replyToMessage' | 'disableNotification'>,
  triggerId: number | undefined,
  markup: SendMessageAction['replyMarkup'],
): SendMessageAction {
  // Assigned one by one rather than spread into the literal: the spread's slow path ran for every reply.
  const action: { -readonly [K in keyof SendMessageAction]: SendMessageAction[K] } = { type: 'send_message', chatId, text };
  if (options.parseMode) action.parseMode = options.parseMode;
  if (options.replyToMessage && triggerId !== undefined) action.replyToMessageId = triggerId;
  if (options.disableNotification) action.disableNotification = true;
  if (markup) action.replyMarkup = markup;
  return action;
}

/** A plain text message to the chat. */
export function sendText(chatId: number, text: string): SendMessageAction {
  return { type: 'send_message', chatId, text };
}
