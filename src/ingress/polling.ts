// Long polling: fetch a batch, hand it to the dispatcher, and confirm its offset only once every update
// of the batch is handled, so a restart neither loses nor repeats an update. Stop ends the long poll
// quietly, lets the batch finish, then confirms the offset with one last getupdates.
import { ApiError, isAbortError } from '../api/errors.js';
import type { BotApi, Update } from '../api/types.js';
import { DEFAULT_BACKOFF, backoffDelay, sleep, type BackoffPolicy } from '../delivery/backoff.js';
import type { UpdateDispatcher } from '../delivery/dispatcher.js';
import { classifyFailure } from '../delivery/failure.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { IngressError } from './errors.js';

export const ALLOWED_UPDATES = ['message'];

export interface PollingIngressOptions {
  api: BotApi;
  dispatcher: UpdateDispatcher;
  logger: Logger;
  metrics: ServiceMetrics;
  timeoutSeconds: number;
  limit: number;
  /** Delete a webhook that is still set instead of failing. */
  deleteWebhook: boolean;
  backoff?: BackoffPolicy;
  /** Told each offset the service has confirmed (every update below it will never come again). */
  onOffsetConfirmed?: (offset: number) => void;
  /** Consecutive "terminated by other getUpdates request" conflicts tolerated before giving up. */
  maxConflicts?: number;
}

export class PollingIngress {
  private readonly controller = new AbortController();
  private offset: number | undefined;
  private loop: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: PollingIngressOptions) {}

  /** The next offset to confirm (highest handled update_id + 1), once there is one. */
  get nextOffset(): number | undefined {
    return this.offset;
  }

  /** Starts the loop. `done` settles when it ends: resolves after stop, rejects with IngressError on a fatal error. */
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

  /** After the dispatcher drained: wait for the loop, then confirm the offset. Idempotent. */
  close(): Promise<void> {
    this.stopAccepting();
    this.closing ??= this.finish();
    return this.closing;
  }

  private async finish(): Promise<void> {
    await this.loop?.catch(() => undefined);
    if (this.offset === undefined) return;
    try {
      await this.options.api.getUpdates({ offset: this.offset, limit: 1, timeout: 0 }, { timeoutMs: 5000 });
      this.options.onOffsetConfirmed?.(this.offset);
      this.options.logger.debug({ offset: this.offset }, 'offset confirmed');
    } catch (error) {
      this.options.logger.warn({ err: error, offset: this.offset }, 'could not confirm the offset; the last batch may be delivered again');
    }
  }

  private get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  private async run(): Promise<void> {
    const { api, logger, metrics, timeoutSeconds, limit } = this.options;
    const backoff = this.options.backoff ?? DEFAULT_BACKOFF;
    const maxConflicts = this.options.maxConflicts ?? 5;
    let failures = 0;
    let conflicts = 0;
    logger.info({ timeout: timeoutSeconds, limit }, 'polling for updates');
    while (!this.stopping) {
      let updates: Update[];
      const asked = this.offset;
      try {
        updates = await api.getUpdates(
          { ...(this.offset !== undefined ? { offset: this.offset } : {}), limit, timeout: timeoutSeconds, allowed_updates: ALLOWED_UPDATES },
          { signal: this.controller.signal },
        );
        failures = 0;
        conflicts = 0;
        if (asked !== undefined) this.options.onOffsetConfirmed?.(asked);
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
      if (updates.length === 0) {
        // With timeout 0 the service answers at once: pause rather than spin.
        if (timeoutSeconds === 0) await sleep(1000, this.controller.signal).catch(() => undefined);
        continue;
      }
      metrics.updatesReceived.inc(updates.length);
      await this.handleBatch(updates);
    }
  }

  private async handleBatch(updates: Update[]): Promise<void> {
    const results = await Promise.allSettled(updates.map((u) => this.options.dispatcher.dispatch(u)));
    const unhandled = updates.filter((_, i) => results[i]!.status === 'rejected').map((u) => u.update_id);
    // Confirm only up to the lowest update still unhandled (shutdown cut it short), never past it.
    this.offset = unhandled.length > 0 ? Math.min(...unhandled) : Math.max(...updates.map((u) => u.update_id)) + 1;
  }

  /** Decides what a failed getupdates means; throws IngressError when polling cannot go on. */
  private async onPollFailure(
    error: unknown,
    failures: number,
    conflicts: number,
    maxConflicts: number,
    backoff: BackoffPolicy,
  ): Promise<number | 'retry_now'> {
    const { api, logger, metrics } = this.options;
    const failure = classifyFailure(error);
    metrics.error(failure.kind);
    if (error instanceof ApiError && error.errorCode === 401) {
      throw new IngressError('unauthorized', 'the token was rejected (401 Unauthorized); check BOT_TOKEN');
    }
    if (error instanceof ApiError && error.errorCode === 409 && /webhook/i.test(error.description)) {
      if (!this.options.deleteWebhook) {
        throw new IngressError(
          'webhook_active',
          'a webhook is set for this bot, so polling is refused (409 Conflict). Delete the webhook (deletewebhook), set polling.delete_webhook: true (HEARSAY_POLLING_DELETE_WEBHOOK=true) to let hearsay delete it, or run with --mode webhook',
        );
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
        throw new IngressError(
          'other_instance',
          'another instance is polling with the same token (409 Conflict: terminated by other getUpdates request); make sure only one hearsay (or other bot program) runs with this token',
        );
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
