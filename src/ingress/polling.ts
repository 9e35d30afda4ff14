// Long polling, transport only: fetch updates, hand them to the pipeline, and confirm (through the next
// offset) only up to the lowest update it has not finished or had stored, so a restart neither loses nor repeats
// an update. Fetching goes on while updates are handled; when the service holds more than one answer brings and
// updates stay in hand for half a second (one chat waiting on its sending limit or its retries), they are stored
// and the offset passes them, so one chat never holds up the others. Updates in hand stay within the pipeline's room
// (delivery.max_pending). Stop ends the long poll quietly, lets the work in flight finish, then confirms the offset
// with one last getupdates.
import { ApiError, isAbortError } from '../api/errors.js';
import type { BotApi, Update } from '../api/types.js';
import { DEFAULT_BACKOFF, MIN_RETRY_WAIT_MS, sleep, type BackoffPolicy } from '../api/backoff.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { pollFailureWait } from './poll-failure.js';
import { UpdatesInHand } from './updates-in-hand.js';

/**
 * While the service holds more than its last answer brought: how long an update may stay in hand before it counts as
 * stuck and is stored, so the offset can pass it (a chat waiting on its sending limit or its retries). A batch being
 * worked through is done in a small part of that, even on a busy machine; a chat sending one a second is not.
 */
const HOLD_MS = 500;

/** What a pause waits for: see PollingIngress.pause. */
type PauseUntil = 'progress' | 'room';

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
  /**
   * Optional: stores an update `handle` was given and has not finished, durably (the inbox), so the offset may pass
   * it before it is done; true once stored (or finished already), false when it cannot be (it then holds the
   * offset). Asked only when the service holds more updates than its last answer brought and these are stuck (see
   * HOLD_MS): without it, the service would answer the same updates again and nothing newer.
   */
  store?(update: Update): Promise<boolean>;
  /** Optional: how many more updates may be taken now (the bound on updates in hand); none is fetched while it is 0. */
  room?(): number | Promise<number>;
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
  /** While the pipeline has no room, how often to look again (sooner when an update of this poller finishes). */
  roomCheckMs?: number;
}

export class PollingIngress {
  private readonly controller = new AbortController();
  /** Handed to the pipeline and not finished (or cut short by shutdown): the offset passes only the stored ones. */
  private readonly inHand = new UpdatesInHand();
  /** In hand, and their handling was cut short (a stop, a store outage): handed again when the service resends them. */
  private readonly cutShort = new Set<number>();
  /** A store of the updates in hand failed, and was logged; reset by the next that succeeds. */
  private storeFailing = false;
  /** Everything handled below this offset is durable (see mayConfirm). */
  private settledBelow = 0;
  /** Ends the wait for the batch in hand or for room (see pause); set only while polling waits. */
  private wake: (() => void) | undefined;
  /** What the wait is for (see pause). */
  private wakeOn: PauseUntil = 'progress';
  private loop: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: PollingIngressOptions) {
    this.controller.signal.addEventListener('abort', () => this.wake?.(), { once: true });
  }

  /** The next offset to confirm: the lowest update neither finished nor stored yet, or the highest received + 1. */
  get nextOffset(): number | undefined {
    return this.inHand.nextOffset;
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
      const room = await this.room(limit);
      if (room <= 0) {
        await this.pause('room');
        continue;
      }
      const asked = this.nextOffset;
      // Only unconfirmed updates come back at once: with none, the service may hold the poll until something new comes.
      const busy = this.inHand.unconfirmedCount > 0;
      const pollStarted = Date.now();
      if (asked !== undefined && !(await this.mayConfirm(asked))) break;
      // A stop that came while the batch was made durable: no new long poll (close() confirms the offset).
      if (this.stopping) break;
      try {
        updates = await api.getUpdates(
          {
            ...(asked !== undefined ? { offset: asked } : {}),
            limit: room,
            timeout: busy ? 0 : timeoutSeconds,
            allowed_updates: [...(this.options.allowedUpdates?.() ?? ALLOWED_UPDATES)],
          },
          { signal: this.controller.signal },
        );
        if (failures > 0) logger.info({ failures }, 'getupdates works again');
        failures = 0;
        conflicts = 0;
        if (asked !== undefined) this.confirmed(asked);
      } catch (error) {
        if (this.stopping && isAbortError(error)) break;
        failures += 1;
        if (error instanceof ApiError && error.errorCode === 409) conflicts += 1;
        const waitMs = await pollFailureWait(error, { failures, conflicts, maxConflicts, backoff }, this.options);
        if (waitMs === 'retry_now') continue;
        try {
          await sleep(waitMs, this.controller.signal);
        } catch {
          break;
        }
        continue;
      }
      for (const update of updates) this.hand(update);
      if (this.inHand.unconfirmedCount > 0) {
        // A full answer: the service holds more, which only an offset past the updates in hand can bring.
        const more = updates.length >= room;
        // Those queued behind a stuck update of their chat are stuck too: stored at once (a long backlog is fetched
        // past at the speed of the disk); the others once they have been in hand for HOLD_MS.
        if (more) await this.storeStuck();
        await this.pause('progress');
        if (more && !this.stopping) await this.storeStuck();
      } else if (updates.length === 0) {
        // An empty answer sooner than the minimum (timeout 0, or a server that ignores `timeout`): pause the
        // whole minimum after it rather than spin (from the answer, so a slow request cannot shorten the pause).
        if (Date.now() - pollStarted < MIN_RETRY_WAIT_MS) await sleep(MIN_RETRY_WAIT_MS, this.controller.signal).catch(() => undefined);
      }
    }
  }

  private hand(update: Update): void {
    const id = update.update_id;
    // Unconfirmed updates come back until the offset passes them: handed once, unless that was cut short.
    if (this.inHand.has(id) && !this.cutShort.delete(id)) return;
    this.inHand.add(update);
    this.options.pipeline.handle(update).then(
      () => {
        this.inHand.finish(id);
        if (this.wakeOn === 'room' || this.inHand.unconfirmedCount === 0) this.wake?.();
      },
      // Cut short (a stop; for replicas' leader, a store outage): it stays unfinished, so the offset stops below it
      // (or it stays stored), and it is handed again when it comes back.
      () => void this.cutShort.add(id),
    );
  }

  /** How many updates may be fetched now: the batch limit, or less when the pipeline has less room. */
  private async room(limit: number): Promise<number> {
    const { pipeline } = this.options;
    if (!pipeline.room) return limit;
    try {
      return Math.min(limit, await pipeline.room());
    } catch (error) {
      this.options.logger.debug({ err: error }, 'could not tell the room for more updates; fetching a batch');
      return limit;
    }
  }

  /**
   * The service holds more than it answered: the updates in hand that are stuck (see UpdatesInHand.stuck; e.g. one
   * chat waiting on its sending limit) are stored, so the offset passes them and newer updates, other chats', are
   * fetched. Without a store, or when it fails, the offset waits for them, and newer updates with it.
   */
  private async storeStuck(): Promise<void> {
    const { pipeline, logger } = this.options;
    if (!pipeline.store || this.inHand.unconfirmedCount === 0) return;
    const updates = this.inHand.stuck(HOLD_MS);
    if (updates.length === 0) return;
    const results = await Promise.allSettled(updates.map((update) => pipeline.store!(update)));
    let failure: unknown = null;
    for (const [i, result] of results.entries()) {
      if (result.status === 'fulfilled' && result.value) this.inHand.markStored(updates[i]!.update_id);
      else failure ??= result.status === 'rejected' ? result.reason : 'not stored';
    }
    if (failure === null) this.storeFailing = false;
    else if (!this.storeFailing) {
      this.storeFailing = true;
      logger.warn({ err: failure, updates: updates.length }, 'could not store the updates in hand; newer updates wait until they are handled');
    }
    if (failure === null) logger.debug({ updates: updates.length, offset: this.nextOffset }, 'updates in hand stored; fetching past them');
  }

  /** The service confirmed every update below `offset`: it will not resend them. */
  private confirmed(offset: number): void {
    this.options.pipeline.confirm(offset).catch((error: unknown) => this.options.logger.warn({ err: error, offset }, 'could not record the confirmed offset'));
  }

  /**
   * Waits until every unconfirmed update is finished ('progress') or any update is ('room'), or the pipeline delay
   * passes, or stop. One wait per batch, woken by a finishing update (not a promise race per update, each of which
   * left a reaction behind).
   */
  private async pause(until: PauseUntil): Promise<void> {
    if (this.stopping) return;
    const { roomCheckMs, pipelineDelayMs = 250 } = this.options;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      this.wakeOn = until;
      timer = setTimeout(resolve, until === 'room' ? (roomCheckMs ?? pipelineDelayMs) : pipelineDelayMs);
    });
    clearTimeout(timer);
    this.wake = undefined;
  }
}
