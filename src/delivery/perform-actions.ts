// The pipeline's perform step for the running service: a message goes out through the ReplySender (split,
// rate-limited, retried), media through the MediaSender (uploaded once, then by file_id), a button press is
// answered and a message edited with one attempt each. State changes never come here: the pipeline commits
// them with the update's done record.
import { TokenRejectedError, classifyFailure } from '../api/failure.js';
import type { AnswerCallbackQueryParams, BotApi } from '../api/types.js';
import { MemoryMediaFileIds } from './media-file-ids.js';
import { MediaSender } from './media-sender.js';
import type { ReplySender, SendOutcome } from './reply-sender.js';
import type { Action, AnswerCallbackAction, EditMessageTextAction } from '../engine/actions.js';
import type { Logger } from '../log/logger.js';
import { ModerationCalls } from './moderation-calls.js';
import type { PerformActions } from '../pipeline/pipeline-options.js';
import { DeadlineQueue } from '../timing/deadline-queue.js';
import { withTyping, type TypingHint } from './typing-hint.js';

export interface ActionPerformerDeps {
  sender: ReplySender;
  /** Answers button presses, edits messages and makes moderation calls (sendmessage goes through `sender`), and sends media through `call`. */
  api: Pick<BotApi, 'answerCallbackQuery' | 'editMessageText' | 'call'>;
  logger: Logger;
  /** Performs moderation calls (one per service, so a missing right is logged once); made from `api` when absent. */
  moderation?: ModerationCalls;
  /** When set: a reply still going out after this many ms shows "typing…" (sendchataction) in its chat first. */
  typingAfterMs?: number;
  /** Sends photos, documents, places …; by default one over `api` that keeps its file_ids in memory only. */
  media?: MediaSender;
}

/** The dependencies with the defaults filled in. */
type PerformDeps = ActionPerformerDeps & Required<Pick<ActionPerformerDeps, 'moderation' | 'media'>>;

/** Builds the perform step: the actions in order; returns the delivery outcome of the messages sent, if any. */
export function createActionPerformer(given: ActionPerformerDeps): PerformActions {
  const deps: PerformDeps = {
    ...given,
    moderation: given.moderation ?? new ModerationCalls({ api: given.api, logger: given.logger }),
    media: given.media ?? new MediaSender({ api: given.api as BotApi, fileIds: new MemoryMediaFileIds(), logger: given.logger }),
  };
  // Most decisions are one reply: it is performed without a loop's async frame around it (this runs for every update).
  const performActions: PerformActions = (actions, { ruleId }, signal) =>
    actions.length === 1 ? perform(actions[0]!, ruleId, deps, signal) : performAll(actions, ruleId, deps, signal);
  const { typingAfterMs, api } = deps;
  if (typingAfterMs === undefined) return performActions;
  return withTyping(performActions, new DeadlineQueue<TypingHint>(typingAfterMs), (chatId) =>
    api
      .call('sendchataction', { chat_id: chatId, action: 'typing' })
      .catch((error: unknown) => deps.logger.debug({ reason: error instanceof Error ? error.message : String(error) }, 'sendchataction failed')),
  );
}

async function performAll(actions: readonly Action[], ruleId: string | null, deps: PerformDeps, signal: AbortSignal): Promise<SendOutcome | null> {
  let outcome: SendOutcome | null = null;
  // The message the last reply became, for a moderation call that pins it.
  let replyId: number | undefined;
  for (const action of actions) {
    if (action.type === 'moderate') {
      await deps.moderation!.perform(action, replyId, signal);
      continue;
    }
    const sent = await perform(action, ruleId, deps, signal);
    if (action.type === 'send_message' || action.type === 'send_media') replyId = sent?.messageId;
    if (sent) outcome = outcome ? { sent: outcome.sent + sent.sent, dropped: outcome.dropped || sent.dropped } : sent;
  }
  return outcome;
}

function perform(action: Action, ruleId: string | null, deps: PerformDeps, signal: AbortSignal): Promise<SendOutcome | null> {
  if (action.type === 'send_media') return deps.media.send(action, ruleId, signal);
  if (action.type !== 'send_message') return performOther(action, deps, signal);
  // Field by field rather than rest and spread: every reply passes here.
  const { chatId, text, parseMode, replyToMessageId, disableNotification, replyMarkup, threadId } = action;
  if (action.pinned)
    return deps.sender.send({ ruleId, chatId, text, parseMode, replyToMessageId, threadId, disableNotification, replyMarkup, wantsMessageId: true }, signal);
  return deps.sender.send({ ruleId, chatId, text, parseMode, replyToMessageId, threadId, disableNotification, replyMarkup }, signal);
}

async function performOther(action: Exclude<Action, { type: 'send_message' | 'send_media' }>, deps: ActionPerformerDeps, signal: AbortSignal): Promise<null> {
  switch (action.type) {
    case 'answer_callback':
      await oneAttempt('answercallbackquery', { callback_query_id: action.callbackQueryId }, deps, signal, () => answerCallback(action, deps, signal));
      return null;
    case 'edit_message_text':
      await oneAttempt('editmessagetext', { chat_id: action.chatId, message_id: action.messageId }, deps, signal, () => editMessageText(action, deps, signal));
      return null;
    case 'chat_action':
      await oneAttempt('sendchataction', { chat_id: action.chatId }, deps, signal, () =>
        deps.api.call('sendchataction', { chat_id: action.chatId, action: action.action }, { signal }),
      );
      return null;
    case 'moderate':
      await deps.moderation!.perform(action, undefined, signal);
      return null;
    case 'set_state':
    case 'set_flow':
    case 'effect':
    case 'cancel_effects':
      // Committed by the pipeline with the update (effects are performed by the outbox after it), never performed here.
      return null;
  }
}

function answerCallback(action: AnswerCallbackAction, deps: ActionPerformerDeps, signal: AbortSignal): Promise<unknown> {
  // Assigned rather than spread into the literal: every button press passes here.
  const params: AnswerCallbackQueryParams = { callback_query_id: action.callbackQueryId };
  if (action.text !== undefined) params.text = action.text;
  if (action.showAlert) params.show_alert = true;
  return deps.api.answerCallbackQuery(params, { signal });
}

function editMessageText(action: EditMessageTextAction, deps: ActionPerformerDeps, signal: AbortSignal): Promise<unknown> {
  return deps.api.editMessageText(
    {
      chat_id: action.chatId,
      message_id: action.messageId,
      text: action.text,
      ...(action.parseMode ? { parse_mode: action.parseMode } : {}),
      ...(action.replyMarkup ? { reply_markup: action.replyMarkup } : {}),
    },
    { signal },
  );
}

/**
 * One attempt (the client's retry policy for these methods): an unanswered press only leaves the button spinning
 * a while, and an edit that fails (the message is gone, or unchanged) leaves the old text, so a failure is logged
 * (the client's metrics watcher counts it), not retried.
 */
async function oneAttempt(method: string, about: object, deps: ActionPerformerDeps, signal: AbortSignal, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    const failure = classifyFailure(error);
    if (failure.action === 'aborted' || signal.aborted) throw error;
    // 401 is never this update's fault: it stays unhandled and the service stops taking updates.
    if (failure.action === 'stop') throw new TokenRejectedError(method);
    deps.logger.warn({ ...about, reason: error instanceof Error ? error.message : String(error) }, `${method} failed`);
  }
}
