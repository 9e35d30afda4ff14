// Long polling, transport only: fetch updates, hand them to the pipeline, and confirm (through the next
// offset) only up to the lowest update it has not finished, so a restart neither loses nor repeats an update.
// Fetching goes on while updates are handled, so one chat stuck in retries does not hold up the others. Stop
// ends the long poll quietly, lets the work in flight finish, then confirms the offset with one last getupdates.
import { ApiError, isAbortError } from '../api/errors.js';
import type { BotApi, Update } from '../api/types.js';
import { DEFAULT_BACKOFF, MIN_RETRY_WAIT_MS, backoffDelay, sleep, type BackoffPolicy } from '../api/backoff.js';
import { classifyFailure, tokenRevokedError } from '../api/failure.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { HearsayError } from '../errors/hearsay-error.js';

/** The update kinds hearsay asks for (polling and setwebhook) unless told otherwise: messages and button presses. */
export const ALLOWED_UPDATES: readonly string[] = ['message', 'callback_query'];

/** What polling needs from the update pipeline. */
export interface PollingPipeline {
  /** Resolves once the update is done (handled before, now, or dropped for good); rejects when cut short. */
  handle(update: Update): Promise<void>;
  /** The service confirmed every update below `offset`. */
  confirm(offset: number): Promise<void>;
  /** Optional: resolves once every update handled so far is durable; awaited before a getupdates confirms a new offset. */
  settle?(): Promise<void>;
  /**
   * Asked before each getupdates that confirms `offset` (replicas: is this one still the leader?); false ends
   * polling quietly, confirming nothing more. Without it, polling always may.
   */
  mayConfirm?(offset: number): Promise<boolean>;
}

export interface PollingIngressOptions {
  api: BotApi;
  pipeline: PollingPipeline;
  logger: Logger;
  metrics: ServiceMetrics;
  timeoutSeconds: number;
  limit: number;
  /** Delete a webhook that is still set instead of failing. */
  deleteWebhook: boolean;
  backoff?: BackoffPolicy;
  /** Where the token came from (BOT_TOKEN or BOT_TOKEN_FILE), for the message when it is refused. */
  tokenSource?: string;
  /**
   * The update kinds to ask for, read before every getupdates (the rules decide: `chat_member` only when a
   * rule answers members joining or leaving); {@link ALLOWED_UPDATES} without it.
   */
  allowedUpdates?: () => readonly string[];
  /** Consecutive "terminated by other getUpdates request" conflicts tolerated before giving up. */
  maxConflicts?: number;
  /**
   * While updates are in flight, how long to wait for them before fetching again. The service answers at
   * once while unconfirmed updates exist, so this paces fetching instead of a long poll.
   */
  pipelineDelayMs?: number;
}

export class PollingIngress {
  private readonly controller = new AbortController();
  /** Handed to the pipeline and not finished, or cut short by shutdown: the offset must never pass these. */
  private readonly unfinished = new Set<number>();
  private highestReceived: number | undefined;
  /** Everything handled below this offset is durable (see mayConfirm). */
  private settledBelow = 0;
  /** Ends the wait for the batch in hand (see waitForProgress); set only while polling waits. */
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: PollingIngressOptions) {
    this.controller.signal.addEventListener('abort', () => this.wake?.(), { once: true });
  }

  /** The next offset to confirm: the lowest update not finished yet, or the highest received + 1. */
  get nextOffset(): number | undefined {
    if (this.unfinished.size > 0) return Math.min(...this.unfinished);
    return this.highestReceived === undefined ? undefined : this.highestReceived + 1;
  }

  /** Starts the loop. `done` settles when it ends: resolves after stop, rejects with HearsayError on a fatal error. */
  start(): Promise<void> {
    this.loop ??= this.run();
    return Promise.resolve();
  }

  get done(): Promise<void> {
    return this.loop ?? Promise.resolve();
  }

  /** Stop fetching: the long poll in progress ends now; a batch being handled keeps going. */
  stopAccepting(): void {
    this.controller.abort();
  }

  /**
   * After the pipeline drained: wait for the loop, then confirm the offset with one call that waits at most
   * `confirmTimeoutMs` (the stop has a deadline; an unreachable service must not stretch it). Idempotent.
   */
  close(confirmTimeoutMs = 5000): Promise<void> {
    this.stopAccepting();
    this.closing ??= this.finish(confirmTimeoutMs);
    return this.closing;
  }

  private async finish(confirmTimeoutMs: number): Promise<void> {
    await this.loop?.catch(() => undefined);
    const offset = this.nextOffset;
    if (offset === undefined || !(await this.mayConfirm(offset))) return;
    try {
      await this.options.api.getUpdates({ offset, limit: 1, timeout: 0 }, { timeoutMs: confirmTimeoutMs });
      await this.options.pipeline.confirm(offset);
      this.options.logger.debug({ offset }, 'offset confirmed');
    } catch (error) {
      this.options.logger.warn({ err: error, offset }, 'could not confirm the offset; the last updates may be delivered again');
    }
  }

  /**
   * Before a getupdates confirms `offset`: what was handled below it is made durable first (one flush for the
   * whole batch; a disk that fails it ends polling with nothing confirmed), and replicas check they still lead.
   */
  private async mayConfirm(offset: number): Promise<boolean> {
    const { pipeline } = this.options;
    if (pipeline.settle && offset > this.settledBelow) {
      await pipeline.settle();
      this.settledBelow = offset;
    }
    return pipeline.mayConfirm ? pipeline.mayConfirm(offset) : true;
  }

  private get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  private async run(): Promise<void> {
    const { api, logger, timeoutSeconds, limit } = this.options;
    const backoff = this.options.backoff ?? DEFAULT_BACKOFF;
    const maxConflicts = this.options.maxConflicts ?? 5;
    let failures = 0;
    let conflicts = 0;
    logger.info({ timeout: timeoutSeconds, limit }, 'polling for updates');
    while (!this.stopping) {
      let updates: Update[];
      const asked = this.nextOffset;
      const busy = this.unfinished.size > 0;
      const pollStarted = Date.now();
      if (asked !== undefined && !(await this.mayConfirm(asked))) break;
      // A stop that came while the batch was made durable: no new long poll (close() confirms the offset).
      if (this.stopping) break;
      try {
        updates = await api.getUpdates(
          {
            ...(asked !== undefined ? { offset: asked } : {}),
            limit,
            timeout: busy ? 0 : timeoutSeconds,
            allowed_updates: [...(this.options.allowedUpdates?.() ?? ALLOWED_UPDATES)],
          },
          { signal: this.controller.signal },
        );
        failures = 0;
        conflicts = 0;
        if (asked !== undefined) this.confirmed(asked);
      } catch (error) {
        if (this.stopping && isAbortError(error)) break;
        failures += 1;
        if (error instanceof ApiError && error.errorCode === 409) conflicts += 1;
        const waitMs = await this.onPollFailure(error, failures, conflicts, maxConflicts, backoff);
        if (waitMs === 'retry_now') continue;
        try {
          await sleep(waitMs, this.controller.signal);
        } catch {
          break;
        }
        continue;
      }
      // Updates in flight come back until the offset passes them: the pipeline knows them and joins them.
      for (const update of updates) this.hand(update);
      if (this.unfinished.size > 0) {
        await this.waitForProgress();
      } else if (updates.length === 0) {
        // An empty answer sooner than the minimum (timeout 0, or a server that ignores `timeout`): pause the
        // whole minimum after it rather than spin (from the answer, so a slow request cannot shorten the pause).
        if (Date.now() - pollStarted < MIN_RETRY_WAIT_MS) await sleep(MIN_RETRY_WAIT_MS, this.controller.signal).catch(() => undefined);
      }
    }
  }

  private hand(update: Update): void {
    const id = update.update_id;
    this.unfinished.add(id);
    if (this.highestReceived === undefined || id > this.highestReceived) this.highestReceived = id;
    this.options.pipeline.handle(update).then(
      () => {
        this.unfinished.delete(id);
        if (this.unfinished.size === 0) this.wake?.();
      },
      // Cut short by shutdown: it stays unfinished, so the offset stops below it and the service resends it.
      () => undefined,
    );
  }

  /** The service confirmed every update below `offset`: it will not resend them. */
  private confirmed(offset: number): void {
    this.options.pipeline.confirm(offset).catch((error: unknown) => this.options.logger.warn({ err: error, offset }, 'could not record the confirmed offset'));
  }

  /**
   * Waits until everything in flight is handled, or the pipeline delay passes, or stop. One wait per batch, woken
   * by the batch's last update (not a promise race per finished update, each of which left a reaction behind).
   */
  private async waitForProgress(): Promise<void> {
    if (this.unfinished.size === 0 || this.stopping) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      timer = setTimeout(resolve, this.options.pipelineDelayMs ?? 250);
    });
    clearTimeout(timer);
    this.wake = undefined;
  }

  /** Decides what a failed getupdates means; throws HearsayError when polling cannot go on. */
  private async onPollFailure(
    error: unknown,
    failures: number,
    conflicts: number,
    maxConflicts: number,
    backoff: BackoffPolicy,
  ): Promise<number | 'retry_now'> {
    const { api, logger } = this.options;
    // Counted (by kind) by the client's metrics watcher, like every other call.
    const failure = classifyFailure(error);
    if (error instanceof ApiError && error.errorCode === 401) {
      // At start the token worked (getme): now it was revoked or replaced, e.g. by /token in the assistant.
      throw tokenRevokedError(this.options.tokenSource);
    }
    if (error instanceof ApiError && error.errorCode === 409 && /webhook/i.test(error.description)) {
      if (!this.options.deleteWebhook) {
        throw new HearsayError('HS_ERR_WEBHOOK_ACTIVE', []);
      }
      logger.warn('a webhook is set; deleting it as polling.delete_webhook asks (pending updates are kept)');
      try {
        await api.deleteWebhook({ drop_pending_updates: false });
        return 'retry_now';
      } catch (deleteError) {
        logger.warn({ err: deleteError }, 'deletewebhook failed; retrying');
        return backoffDelay(failures, backoff);
      }
    }
    if (error instanceof ApiError && error.errorCode === 409) {
      if (conflicts >= maxConflicts) {
        throw new HearsayError('HS_ERR_OTHER_INSTANCE', []);
      }
      const waitMs = backoffDelay(conflicts, backoff);
      logger.warn({ retry_in_ms: waitMs }, 'another getupdates request is running with this token (409 Conflict); is a second instance running?');
      return waitMs;
    }
    const waitMs = failure.action === 'wait_retry_after' ? failure.retryAfter! * 1000 : backoffDelay(failures, backoff);
    logger.warn({ err: error, retry_in_ms: waitMs }, 'getupdates failed; retrying');
    return waitMs;
  }
}
