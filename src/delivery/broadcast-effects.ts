// The performer of `broadcast` effects: one recipient of a campaign. The message is the campaign's (read from the
// store's campaign book, kept a second so a cancel is seen soon); it goes out in the low-priority lane of the rate
// limits (behind every reply). What becomes of it is kept in the book once per recipient and counted in
// hearsay_broadcast_messages_total: sent; blocked (403 "bot was blocked by the user": the user is marked
// `user._blocked`, which later campaigns leave out and their next message clears); failed (any other refusal, or
// still failing after MAX_ATTEMPTS tries: a 429 waits its retry_after first); cancelled (nothing sent). Every 10 s
// while a campaign sends, its progress is logged.
import { classifyFailure, TokenRejectedError } from '../api/failure.js';
import { ApiError } from '../api/errors.js';
import type { BotApi } from '../api/types.js';
import type { ParseMode } from '../engine/reply.js';
import { BLOCKED_VARIABLE } from '../engine/status-events.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { recipientsLeft, type CampaignBook, type CampaignRecord, type RecipientOutcome } from '../pipeline/broadcast-port.js';
import type { BroadcastEffectPayload } from '../pipeline/broadcasts.js';
import type { EffectAttempt, EffectPerformer } from '../pipeline/outbox.js';
import type { StoredEffect } from '../pipeline/outbox-port.js';
import type { StateCommit } from '../pipeline/ports.js';
import { splitFormattedText } from './split-formatted.js';

/** Attempts of one recipient (each after the client's own retries) before it counts as failed. */
export const MAX_ATTEMPTS = 5;
/** How long a campaign read from the book is used before it is read again (a cancel is seen within this). */
const CAMPAIGN_FRESH_MS = 1000;
/**
 * How long a recipient waits for its campaign's entry, which is stored just after the recipients
 * (pipeline/broadcasts.ts): a replica may claim one in between. Past this, the planning was cut short.
 */
export const PLANNING_GRACE_MS = 60_000;
/** How often a sending campaign's progress is logged. */
export const PROGRESS_EVERY_MS = 10_000;

export interface BroadcastPerformerOptions {
  readonly api: BotApi;
  readonly campaigns: CampaignBook;
  /** Marks a user who blocked the bot (a commit of the store, as an update's). */
  readonly commitState: (state: StateCommit) => Promise<unknown>;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
  readonly now?: () => number;
}

/** The performer of `broadcast` effects, and the progress log it keeps (stopped by `close`). */
export interface BroadcastPerformer {
  readonly perform: EffectPerformer;
  close(): void;
}

/** Sends a campaign's message to one chat in the low-priority lane, part by part when it is long. */
async function sendMessage(api: BotApi, campaign: CampaignRecord, chatId: number, signal: AbortSignal): Promise<void> {
  const parts = splitFormattedText(campaign.text, campaign.parseMode as ParseMode | undefined);
  for (let index = 0; index < parts.length; index++) {
    const params: Record<string, unknown> = { chat_id: chatId, text: parts[index] };
    if (campaign.parseMode) params.parse_mode = campaign.parseMode;
    // The buttons go with the last part, under the whole text.
    if (campaign.replyMarkup && index === parts.length - 1) params.reply_markup = campaign.replyMarkup;
    await api.call('sendmessage', params as never, { signal, background: true, logFields: { campaign: campaign.id } });
  }
}

/**
 * A recipient whose campaign the book does not keep: not yet (tried again after the outbox's back-off, 1 s, then
 * 2, 4, …: a few attempts each, also for a large campaign whose planning was cut short), or never (given up unsent).
 */
function missingCampaign(effect: StoredEffect, id: string, at: number): EffectAttempt {
  if (at - effect.dueAt < PLANNING_GRACE_MS) return { outcome: 'retry', reason: `campaign ${id} is being planned` };
  return { outcome: 'failed', reason: `campaign ${id} is not kept (its planning was cut short, or it was forgotten): nothing was sent` };
}

function blockedByUser(error: unknown): boolean {
  return error instanceof ApiError && error.errorCode === 403 && /blocked by the user/i.test(error.description);
}

/** The performer of `broadcast` effects over the service's client. */
export function broadcastPerformer(options: BroadcastPerformerOptions): BroadcastPerformer {
  const now = options.now ?? Date.now;
  const cache = new Map<string, { record: CampaignRecord; at: number }>();
  const progress = new ProgressLog(options.campaigns, options.logger, now);
  const campaignOf = async (id: string): Promise<CampaignRecord | undefined> => {
    const cached = cache.get(id);
    if (cached && now() - cached.at < CAMPAIGN_FRESH_MS) return cached.record;
    const record = await options.campaigns.get(id);
    if (record) cache.set(id, { record, at: now() });
    return record;
  };
  const settle = async (effect: StoredEffect, campaign: string, outcome: RecipientOutcome): Promise<EffectAttempt> => {
    await options.campaigns.record(campaign, effect.userId!, outcome);
    options.metrics.broadcastMessages.inc({ campaign, outcome });
    progress.active(campaign);
    return { outcome: 'done' };
  };
  const perform: EffectPerformer = async (effect, signal) => {
    const { campaign: id } = effect.payload as unknown as BroadcastEffectPayload;
    const campaign = await campaignOf(id);
    if (!campaign) return missingCampaign(effect, id, now());
    if (campaign.cancelledAt !== undefined) return settle(effect, id, 'cancelled');
    const chatId = effect.chatId!;
    try {
      await sendMessage(options.api, campaign, chatId, signal);
      return await settle(effect, id, 'sent');
    } catch (error) {
      const failure = classifyFailure(error);
      if (failure.action === 'aborted') throw error;
      if (failure.action === 'stop') throw new TokenRejectedError('sendmessage');
      const reason = error instanceof Error ? error.message : String(error);
      if (blockedByUser(error)) {
        const mark = { type: 'set_state', scope: 'user', key: BLOCKED_VARIABLE, value: Math.floor(now() / 1000) } as const;
        await options.commitState({ scope: { chatId, userId: effect.userId! }, changes: [mark] });
        options.logger.debug({ campaign: id, user_id: effect.userId }, 'broadcast: the user blocked the bot; marked user._blocked');
        return settle(effect, id, 'blocked');
      }
      const retry = failure.action === 'wait_retry_after' || failure.action === 'backoff';
      if (retry && effect.attempts + 1 < MAX_ATTEMPTS)
        return { outcome: 'retry', reason, ...(failure.retryAfter ? { retryAfterMs: failure.retryAfter * 1000 } : {}) };
      options.logger.warn({ campaign: id, user_id: effect.userId, reason, attempts: effect.attempts + 1 }, 'broadcast: not delivered to this recipient');
      return settle(effect, id, 'failed');
    }
  };
  return { perform, close: () => progress.close() };
}

/** Logs each campaign that sent something in the last 10 s: its counts, what is left, and the pace. */
class ProgressLog {
  private readonly sending = new Map<string, { sentBefore: number; at: number }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly campaigns: CampaignBook,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  active(id: string): void {
    if (!this.sending.has(id)) this.sending.set(id, { sentBefore: 0, at: this.now() });
    if (this.timer) return;
    this.timer = setInterval(() => void this.report().catch(() => undefined), PROGRESS_EVERY_MS);
    this.timer.unref();
  }

  private async report(): Promise<void> {
    for (const [id, last] of [...this.sending]) {
      const campaign = await this.campaigns.get(id);
      if (!campaign) {
        this.sending.delete(id);
        continue;
      }
      const done = campaign.total - recipientsLeft(campaign);
      const left = recipientsLeft(campaign);
      const perSecond = Math.round(((done - last.sentBefore) * 1000) / Math.max(1, this.now() - last.at));
      const { sent, blocked, failed, cancelled } = campaign.counts;
      this.logger.info(
        { campaign: id, sent, blocked, failed, cancelled, left, total: campaign.total, per_second: perSecond },
        left === 0 ? 'broadcast finished' : 'broadcast progress',
      );
      if (left === 0 || done === last.sentBefore) this.sending.delete(id);
      else this.sending.set(id, { sentBefore: done, at: this.now() });
    }
    if (this.sending.size === 0) this.close();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
