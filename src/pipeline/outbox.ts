// The life of one effect, after the record that decided it is durable: claimed once due (by this process
// alone; on a shared store by one replica) → in its order key's turn of the chat sequencer (a message to a
// chat waits for that chat's earlier work) → too late? dropped and logged → the attempt recorded (a crash from
// here on leaves it in doubt) → performed by the performer of its kind → done, given up (logged), or retried
// later with back-off → the outcome recorded. Effects due later are looked for when they come due; a commit
// with effects wakes the room at once.
import { TokenRejectedError } from '../api/failure.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import type { EffectOutbox, EffectOutcome, StoredEffect } from './outbox-port.js';
import { SequenceAbortedError, StoreUnavailableError, type ChatSequencer } from './ports.js';

/** How one attempt of an effect went, as its performer says. */
export type EffectAttempt =
  | { readonly outcome: 'done' }
  /** It can never succeed (the chat is gone, the bot was removed, the request is refused): given up now. */
  | { readonly outcome: 'failed'; readonly reason: string }
  /** It may succeed later (a timeout, a 5xx, a 429): tried again after `retryAfterMs` or the room's back-off. */
  | { readonly outcome: 'retry'; readonly reason: string; readonly retryAfterMs?: number };

/**
 * Carries out one attempt of an effect of its kind. Throws TokenRejectedError on a refused token (nothing was
 * done) and an AbortError once `signal` aborts; any other throw counts as a retry.
 */
export type EffectPerformer = (effect: StoredEffect, signal: AbortSignal) => Promise<EffectAttempt>;

export interface OutboxRoomOptions {
  outbox: EffectOutbox;
  sequencer: ChatSequencer;
  /** The performer of each kind of effect. */
  performers: Readonly<Record<string, EffectPerformer>>;
  logger: Logger;
  metrics: ServiceMetrics;
  /** Effects in hand at once, at most. */
  concurrency: number;
  /** On a shared store other replicas add effects too: look at least this often (null: only when woken or due). */
  pollEveryMs?: number | null;
  /** An effect that says nothing is given up this long after it was due (default 24 h). */
  giveUpAfterMs?: number;
  now?: () => number;
  /** Told once when the token was refused (the service stops). */
  onTokenRejected?: (error: TokenRejectedError) => void;
}

/** The default of `giveUpAfterMs`. */
export const DEFAULT_GIVE_UP_AFTER_MS = 24 * 3_600_000;
/** Back-off between attempts: 1 s, 2 s, 4 s … at most 10 minutes. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 600_000;
/** After the store failed a look, the next one comes this much later. */
const STORE_RETRY_MS = 1000;
/** Node's timers cannot wait longer than this. */
const MAX_WAIT_MS = 2 ** 31 - 1;

export class OutboxRoom {
  private inHand = 0;
  private looking = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: OutboxRoomOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Effects in hand (claimed and not finished). */
  get inFlight(): number {
    return this.inHand;
  }

  /** Looks for due effects now (at start, after a commit that stored effects, after an outage). */
  wake(): void {
    if (this.closed) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = true;
    void this.look().finally(() => {
      this.looking = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /**
   * Performs every effect due by now, and waits for them (and for those they make due): for a driver that moves
   * its own clock (`hearsay test`), instead of waiting for the room's timers. Resolves once none is due or in hand.
   */
  async performDue(): Promise<void> {
    for (;;) {
      const claimed = await this.options.outbox.claimDue(this.now(), this.options.concurrency);
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((effect) => this.perform(effect)));
    }
  }

  /** No more claiming; effects in hand finish in the sequencer's drain. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private async look(): Promise<void> {
    const { outbox, concurrency, logger } = this.options;
    let nextAt: number | null = null;
    try {
      for (;;) {
        const room = concurrency - this.inHand;
        if (room <= 0 || this.closed) break;
        const claimed = await outbox.claimDue(this.now(), room);
        for (const effect of claimed) this.start(effect);
        if (claimed.length < room) break;
      }
      nextAt = await outbox.nextDueAt();
    } catch (error) {
      // The store's outage is reported by the store; effects wait in it and are looked for again.
      if (!(error instanceof StoreUnavailableError)) logger.error({ err: error }, 'looking for due effects failed');
      nextAt = this.now() + STORE_RETRY_MS;
    }
    this.schedule(nextAt);
  }

  private schedule(nextAt: number | null): void {
    clearTimeout(this.timer);
    if (this.closed) return;
    const poll = this.options.pollEveryMs ?? null;
    let wait = nextAt === null ? poll : Math.max(0, nextAt - this.now());
    if (wait === null) return;
    if (poll !== null) wait = Math.min(wait, poll);
    // In hand already: the next look comes when one of them finishes.
    if (nextAt !== null && wait === 0 && this.inHand > 0) return;
    this.timer = setTimeout(() => this.wake(), Math.min(Math.max(wait, 1), MAX_WAIT_MS));
    this.timer.unref();
  }

  private start(effect: StoredEffect): void {
    void this.perform(effect).finally(() => this.wake());
  }

  /** One claimed effect, in its order key's turn; resolves once its attempt is over (whatever became of it). */
  private perform(effect: StoredEffect): Promise<void> {
    this.inHand += 1;
    return this.options.sequencer
      .run(effect.orderKey ?? `effect:${effect.id}`, (signal) => this.attempt(effect, signal))
      .catch((error: unknown) => this.onCutShort(effect, error))
      .finally(() => {
        this.inHand -= 1;
      });
  }

  /** One attempt under the order key's turn: late → dropped; otherwise recorded, performed, and its outcome recorded. */
  private async attempt(effect: StoredEffect, signal: AbortSignal): Promise<void> {
    const { outbox, logger } = this.options;
    const now = this.now();
    if (effect.lateAfterMs !== undefined && now - effect.dueAt > effect.lateAfterMs) {
      await outbox.finishEffect(effect.id, { outcome: 'failed', reason: 'too late' });
      this.count(effect, 'late');
      logger.warn({ ...about(effect), late_ms: now - effect.dueAt, late_after_ms: effect.lateAfterMs }, 'effect dropped: it is too late to perform it');
      return;
    }
    if (effect.inDoubt) {
      this.count(effect, 'in_doubt');
      logger.warn(about(effect), 'an attempt of this effect was cut short (a crash or a stopped replica); it is performed again and may have happened twice');
    }
    await outbox.beginEffect(effect.id);
    const performer = this.options.performers[effect.kind];
    let attempt: EffectAttempt;
    try {
      attempt = performer ? await performer(effect, signal) : { outcome: 'failed', reason: `no performer for effects of kind ${effect.kind}` };
    } catch (error) {
      if (error instanceof TokenRejectedError) {
        // Nothing was done (401): the effect is tried again by the next run.
        await outbox.finishEffect(effect.id, { outcome: 'retry', retryAt: now, reason: 'the token was refused' });
        this.options.onTokenRejected?.(error);
        return;
      }
      if (signal.aborted) throw error;
      attempt = { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
    await this.finish(effect, attempt);
  }

  private async finish(effect: StoredEffect, attempt: EffectAttempt): Promise<void> {
    const { outbox, logger } = this.options;
    const outcome = this.outcomeOf(effect, attempt);
    await outbox.finishEffect(effect.id, outcome);
    if (outcome.outcome === 'done') return this.count(effect, 'done');
    if (outcome.outcome === 'retry') {
      this.count(effect, 'retried');
      logger.info(
        { ...about(effect), reason: outcome.reason, retry_at: new Date(outcome.retryAt).toISOString() },
        'effect not performed yet; it is tried again later',
      );
      return;
    }
    this.count(effect, 'failed');
    logger.error({ ...about(effect), reason: outcome.reason, attempts: effect.attempts + 1 }, 'effect given up');
  }

  /** A retry becomes a give-up once the effect is past its give-up time. */
  private outcomeOf(effect: StoredEffect, attempt: EffectAttempt): EffectOutcome {
    if (attempt.outcome !== 'retry') return attempt;
    const now = this.now();
    const retryAt = now + (attempt.retryAfterMs ?? Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(effect.attempts, 20)));
    const giveUpAt = effect.dueAt + (effect.giveUpAfterMs ?? this.options.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS);
    if (retryAt > giveUpAt) return { outcome: 'failed', reason: `${attempt.reason} (gave up after ${effect.attempts + 1} attempts)` };
    return { outcome: 'retry', retryAt, reason: attempt.reason };
  }

  /** A stop, a refused token or an outage cut the attempt short: a claim never begun is given back; a begun one stays in doubt. */
  private onCutShort(effect: StoredEffect, error: unknown): void {
    if (error instanceof SequenceAbortedError) {
      void this.options.outbox.releaseEffect(effect.id).catch(() => undefined);
      return;
    }
    if (error instanceof StoreUnavailableError) {
      this.options.logger.debug({ ...about(effect), err: error }, 'effect not finished now: the store is unavailable; it stays in the outbox');
      return;
    }
    this.options.logger.warn({ ...about(effect), err: error }, 'effect not finished; it stays in the outbox');
  }

  private count(effect: StoredEffect, outcome: string): void {
    this.options.metrics.effects.inc({ kind: effect.kind, outcome });
  }
}

/** What a log line says about an effect (never its payload: it may hold a user's text or a backend's secret). */
function about(effect: StoredEffect): Record<string, unknown> {
  return { effect: effect.id, kind: effect.kind, source: effect.source, chat_id: effect.chatId, user_id: effect.userId, attempts: effect.attempts };
}
