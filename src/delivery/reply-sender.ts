// Turns one OutgoingReply into sendmessage calls and says how it went. Retrying and rate limiting are the
// client's transformers (src/api/retry.ts, rate-limiter.ts); what is left here is what a reply means: a part
// the service refused (400/403) or that failed to the last attempt drops the rest so the chat never stalls;
// a group that became a supergroup gets the reply at its new id; 401 throws TokenRejectedError: the reply
// is not given up, the update stays unhandled for the next run.
import { ApiError } from '../api/errors.js';
import { TokenRejectedError, classifyFailure } from '../api/failure.js';
import { retriesExhausted } from '../api/retry.js';
import type { BotApi, SendMessageParams } from '../api/types.js';
import type { OutgoingReply } from '../engine/reply.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { splitFormattedText } from './split-formatted.js';

export interface ReplySenderOptions {
  /** The client with its transformers (retry, rate limits, and the health and metrics watchers). */
  api: BotApi;
  logger: Logger;
  metrics?: ServiceMetrics;
}

export interface SendOutcome {
  /** Messages the service accepted. */
  sent: number;
  /** Parts given up on (the rest of a split reply is not sent after a drop). */
  dropped: boolean;
  /** The message the first part became, when the caller asked for it (OutgoingReply.wantsMessageId). */
  messageId?: number;
}

/** Thrown when shutdown aborted delivery before the reply was finished. */
export class DeliveryAbortedError extends Error {
  override readonly name = 'AbortError';
  constructor() {
    super('delivery aborted by shutdown');
  }
}

export class ReplySender {
  constructor(private readonly options: ReplySenderOptions) {}

  send(reply: OutgoingReply, signal?: AbortSignal): Promise<SendOutcome> {
    // Formatted replies are cut outside their markup and re-balanced, so the service accepts every part.
    const parts = splitFormattedText(reply.text, reply.parseMode);
    // Nearly every reply is one part: sent without the loop's async frame, its outcome in one step (this runs for every update).
    if (parts.length === 1) return this.sendOne(partParams(reply, reply.chatId, parts, 0), reply, signal, reply.wantsMessageId ? outcomeWithId : outcomeOfOne);
    return this.sendParts(parts, reply, signal);
  }

  private async sendParts(parts: readonly string[], reply: OutgoingReply, signal?: AbortSignal): Promise<SendOutcome> {
    let sent = 0;
    // Becomes the supergroup's id when the group turns out to have migrated (then for every later part too).
    let chatId: number | string = reply.chatId;
    for (let index = 0; index < parts.length; index++) {
      const params = partParams(reply, chatId, parts, index);
      const delivered = await this.sendOne(params, reply, signal, wasDelivered);
      chatId = params.chat_id;
      if (!delivered) return { sent, dropped: true };
      sent += 1;
    }
    return { sent, dropped: false };
  }

  /**
   * Sends one part; `outcome` says what it came to (sent, or dropped for good) in the caller's terms, in the same step
   * as the answer when it went out. Moves `params` to the supergroup when the group migrated. The first attempt runs
   * without an async frame; a failure is judged (and a migration followed) in `afterFailure`.
   */
  private sendOne<R>(
    params: SendMessageParams,
    reply: OutgoingReply,
    signal: AbortSignal | undefined,
    outcome: (sent: boolean, result?: unknown) => R,
  ): Promise<R> {
    if (signal?.aborted) return Promise.reject(new DeliveryAbortedError());
    const part: Part = { params, context: { chat_id: reply.chatId, rule: reply.ruleId }, signal };
    return this.attempt(part).then(
      (result) => outcome(true, result),
      (error: unknown) => this.afterFailure(error, part).then((sent) => outcome(sent)),
    );
  }

  /** One sendmessage call for the part (a synchronous throw below counts as a failed attempt). */
  private attempt({ params, context, signal }: Part): Promise<unknown> {
    // Built once per attempt, without spreads: this runs for every reply.
    const callOptions = signal ? { signal, logFields: context } : { logFields: context };
    try {
      return this.options.api.sendMessage(params, callOptions);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private async afterFailure(error: unknown, part: Part, migrated = false): Promise<boolean> {
    const { params, context, signal } = part;
    const failure = classifyFailure(error);
    if (failure.action === 'aborted' || signal?.aborted) throw new DeliveryAbortedError();
    if (failure.action === 'stop') throw new TokenRejectedError('sendmessage');
    const movedTo = error instanceof ApiError ? error.parameters.migrateToChatId : undefined;
    if (movedTo !== undefined && movedTo !== params.chat_id && !migrated) {
      // The group became a supergroup: the same reply goes to its new id at once. The message it answered
      // stays in the old chat, so it is no longer replied to.
      this.options.logger.info({ ...context, migrate_to_chat_id: movedTo }, 'the group became a supergroup; sending the reply there');
      params.chat_id = movedTo;
      delete params.reply_parameters;
      if (signal?.aborted) throw new DeliveryAbortedError();
      try {
        await this.attempt(part);
        return true;
      } catch (next) {
        return this.afterFailure(next, part, true);
      }
    }
    this.dropped(error, context);
    return false;
  }

  /** Logs why a part is given up (refused, last attempt, too long a 429) and counts it. */
  private dropped(error: unknown, context: { chat_id: number; rule: string | null }): void {
    const { logger, metrics } = this.options;
    const failure = classifyFailure(error);
    const reason = error instanceof Error ? error.message : String(error);
    const exhausted = retriesExhausted(error);
    if (exhausted?.limit === 'retry_after') {
      logger.error({ ...context, retry_after: failure.retryAfter }, 'reply dropped: retry_after is longer than hearsay waits');
    } else if (failure.action === 'drop') {
      logger.warn({ ...context, reason }, 'reply dropped: the service refused it');
    } else {
      logger.error({ ...context, reason, attempts: exhausted?.attempts ?? 1 }, 'reply dropped after the last attempt');
    }
    metrics?.error('reply_dropped');
  }
}

/** One part of a reply on its way: what is sent, what the log lines name, and the stop that may cut it short. */
interface Part {
  readonly params: SendMessageParams;
  readonly context: { chat_id: number; rule: string | null };
  readonly signal: AbortSignal | undefined;
}

const wasDelivered = (sent: boolean): boolean => sent;
/** The outcome of a one-part reply that went out (shared: nobody writes to an outcome). */
const SENT_ONE: SendOutcome = Object.freeze({ sent: 1, dropped: false });
const outcomeOfOne = (sent: boolean): SendOutcome => (sent ? SENT_ONE : { sent: 0, dropped: true });
/** As outcomeOfOne, with the id of the message sent (a reply the rule pins). */
const outcomeWithId = (sent: boolean, result?: unknown): SendOutcome => {
  const messageId = (result as { message_id?: unknown } | undefined)?.message_id;
  return sent ? { sent: 1, dropped: false, ...(typeof messageId === 'number' ? { messageId } : {}) } : { sent: 0, dropped: true };
};

/** The sendmessage parameters of part `index` of `parts`, sent to `chatId`. */
function partParams(reply: OutgoingReply, chatId: number | string, parts: readonly string[], index: number): SendMessageParams {
  const params: SendMessageParams = { chat_id: chatId, text: parts[index]! };
  if (reply.parseMode) params.parse_mode = reply.parseMode;
  if (reply.threadId !== undefined) params.message_thread_id = reply.threadId;
  if (reply.disableNotification) params.disable_notification = true;
  // Only the first part answers the triggering message; the rest follow it.
  if (index === 0 && reply.replyToMessageId !== undefined) {
    params.reply_parameters = { message_id: reply.replyToMessageId, allow_sending_without_reply: true };
  }
  // Buttons go under the whole reply, and a request for a reply follows the question: both on the last part.
  if (index === parts.length - 1 && reply.replyMarkup) params.reply_markup = reply.replyMarkup;
  return params;
}
