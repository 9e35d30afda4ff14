// Turns one OutgoingReply into sendmessage calls and sees them through: 429 waits exactly retry_after,
// 5xx / network / timeout back off, 400/403 drop the reply so the chat never stalls, attempts are bounded;
// 401 throws TokenRejectedError: the reply is not given up, the update stays unhandled for the next run.
import type { BotApi, SendMessageParams } from '../api/types.js';
import type { OutgoingReply } from '../engine/reply.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { DEFAULT_BACKOFF, backoffDelay, sleep, type BackoffPolicy } from './backoff.js';
import { ApiError } from '../api/errors.js';
import { TokenRejectedError, classifyFailure } from '../api/failure.js';
import type { OutgoingRateLimiter, RateLimitSlot } from './rate-limiter.js';
import { splitFormattedText } from './split-formatted.js';

export interface ReplySenderOptions {
  api: BotApi;
  logger: Logger;
  metrics?: ServiceMetrics;
  maxAttempts: number;
  /** Waits for the outgoing limits before every attempt; absent = no limits. */
  rateLimiter?: OutgoingRateLimiter;
  backoff?: BackoffPolicy;
  random?: () => number;
  /** Longest 429 wait honoured; a longer retry_after drops the reply rather than blocking the chat for ages. */
  maxRetryAfterSeconds?: number;
  /** Waits between attempts; injectable so tests can record the waits instead of sleeping. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface SendOutcome {
  /** Messages the service accepted. */
  sent: number;
  /** Parts given up on (the rest of a split reply is not sent after a drop). */
  dropped: boolean;
}

/** Thrown when shutdown aborted delivery before the reply was finished. */
export class DeliveryAbortedError extends Error {
  override readonly name = 'AbortError';
  constructor() {
    super('delivery aborted by shutdown');
  }
}

export class ReplySender {
  private readonly backoff: BackoffPolicy;
  private readonly random: () => number;
  private readonly maxRetryAfterSeconds: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: ReplySenderOptions) {
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.random = options.random ?? Math.random;
    this.maxRetryAfterSeconds = options.maxRetryAfterSeconds ?? 300;
    this.sleep = options.sleep ?? sleep;
  }

  async send(reply: OutgoingReply, signal?: AbortSignal): Promise<SendOutcome> {
    // Formatted replies are cut outside their markup and re-balanced, so the service accepts every part.
    const parts = splitFormattedText(reply.text, reply.parseMode);
    let sent = 0;
    // Becomes the supergroup's id when the group turns out to have migrated (then for every later part too).
    let chatId: number | string = reply.chatId;
    for (const [index, text] of parts.entries()) {
      const params: SendMessageParams = { chat_id: chatId, text };
      if (reply.parseMode) params.parse_mode = reply.parseMode;
      if (reply.disableNotification) params.disable_notification = true;
      // Only the first part answers the triggering message; the rest follow it.
      if (index === 0 && reply.replyToMessageId !== undefined) {
        params.reply_parameters = { message_id: reply.replyToMessageId, allow_sending_without_reply: true };
      }
      // Buttons go under the whole reply, and a request for a reply follows the question: both on the last part.
      if (index === parts.length - 1 && reply.replyMarkup) params.reply_markup = reply.replyMarkup;
      const delivered = await this.sendOne(params, reply, signal);
      chatId = params.chat_id;
      if (!delivered) return { sent, dropped: true };
      sent += 1;
    }
    return { sent, dropped: false };
  }

  /** True when sent; false when dropped for good. */
  private async sendOne(params: SendMessageParams, reply: OutgoingReply, signal?: AbortSignal): Promise<boolean> {
    const { api, logger, metrics, maxAttempts } = this.options;
    const context = { chat_id: reply.chatId, rule: reply.ruleId };
    // 429 waits are dictated by the service; only 5xx/network failures grow the backoff.
    let backoffStep = 0;
    let migrated = false;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new DeliveryAbortedError();
      let slot: RateLimitSlot | undefined;
      if (this.options.rateLimiter) {
        try {
          slot = await this.options.rateLimiter.acquire(params.chat_id, signal);
        } catch {
          throw new DeliveryAbortedError();
        }
      }
      try {
        await api.sendMessage(params, signal ? { signal } : undefined).finally(() => slot?.done());
        metrics?.repliesSent.inc();
        return true;
      } catch (error) {
        const failure = classifyFailure(error);
        if (failure.action === 'aborted' || signal?.aborted) throw new DeliveryAbortedError();
        metrics?.error(failure.kind);
        if (failure.action === 'stop') throw new TokenRejectedError('sendmessage');
        const reason = error instanceof Error ? error.message : String(error);
        const movedTo = error instanceof ApiError ? error.parameters.migrateToChatId : undefined;
        if (movedTo !== undefined && movedTo !== params.chat_id && !migrated) {
          migrated = true;
          // The group became a supergroup: the same reply goes to its new id at once. The message it answered
          // stays in the old chat, so it is no longer replied to.
          logger.info({ ...context, migrate_to_chat_id: movedTo }, 'the group became a supergroup; sending the reply there');
          params.chat_id = movedTo;
          delete params.reply_parameters;
          continue;
        }
        if (failure.action === 'drop') {
          logger.warn({ ...context, reason }, 'reply dropped: the service refused it');
          metrics?.error('reply_dropped');
          return false;
        }
        if (attempt >= maxAttempts) {
          logger.error({ ...context, reason, attempts: attempt }, 'reply dropped after the last attempt');
          metrics?.error('reply_dropped');
          return false;
        }
        let waitMs: number;
        if (failure.action === 'wait_retry_after') {
          if (failure.retryAfter! > this.maxRetryAfterSeconds) {
            logger.error({ ...context, retry_after: failure.retryAfter }, 'reply dropped: retry_after is longer than hearsay waits');
            metrics?.error('reply_dropped');
            return false;
          }
          waitMs = failure.retryAfter! * 1000;
        } else {
          waitMs = backoffDelay(++backoffStep, this.backoff, this.random);
        }
        logger.warn({ ...context, reason, attempt, retry_in_ms: waitMs }, 'sendmessage failed; retrying');
        try {
          await this.sleep(waitMs, signal);
        } catch {
          throw new DeliveryAbortedError();
        }
      }
    }
  }
}
