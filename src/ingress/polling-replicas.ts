// Polling with several replicas on a shared store (the Redis store implements its PollLeadership). Every replica keeps trying for the polling lease; the one
// holding it runs the poller, which stores what it fetches (in the shared inbox, checked against its fencing
// token) and confirms the offset once it is stored. What the leader can start at once and heads its chat's queue
// it keeps (stored as its own and begun in the same step); the rest waits unclaimed. Every replica, the leader too,
// claims stored updates up to its free room (delivery.concurrency) and handles them, each chat's in order (the
// per-chat queue in Redis; only a chat's next update is given out, so a busy chat's backlog waits in the store
// and other chats are claimed meanwhile). The leader fetches while the inbox holds fewer than
// delivery.max_pending updates and fewer than a batch wait for a replica. When the leader dies its lease runs
// out and another replica polls from the confirmed offset.
import { setTimeout as sleep } from 'node:timers/promises';
import type { BotApi, Update } from '../api/types.js';
import type { ServiceConfig } from '../config/types.js';
import { OffsetRecordPacer } from './offset-record-pacer.js';
import { PollingIngress } from './polling.js';
import type { Logger } from '../log/logger.js';
import type { HealthState } from '../ops/health.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { StoreUnavailableError, type AcceptedWithRead, type BegunRead } from '../pipeline/ports.js';
import { ReplicaFencedError, type InboxBacklog, type PollLeadership } from '../pipeline/replica-ports.js';
import type { UpdatePipeline } from '../pipeline/update-pipeline.js';
import { pollingSettings } from './polling-settings.js';

export interface PollingReplicaParts {
  config: ServiceConfig;
  api: BotApi;
  pipeline: UpdatePipeline;
  /** The shared store's lease and inbox. */
  leadership: PollLeadership;
  /** How long the polling lease outlives its holder's last renewal (default 8 s). */
  leaseMs?: number;
  logger: Logger;
  metrics: ServiceMetrics;
  health: HealthState;
  /** The update kinds the leader asks for, read before every getupdates (see PollingIngressOptions). */
  allowedUpdates?: () => readonly string[];
}

/**
 * The polling lease: renewed every third of it, so a leader survives two failed renewals; a dead leader's
 * lease is taken within it plus one acquisition round (8.5 s by default: under the 10 s promised).
 */
const POLL_LEASE_MS = 8000;
/** How often a replica without the lease tries for it. */
const ACQUIRE_EVERY_MS = 500;
/** While the inbox has no room (see room), the leader looks this often before fetching more. */
const BACKLOG_CHECK_MS = 10;
/** How often an idle replica looks for stored updates, at most (sooner after it found some). */
const CLAIM_IDLE_MAX_MS = 100;
/** The leader records the confirmed offset in the store at most this often (see OffsetRecordPacer). */
const OFFSET_RECORD_EVERY_MS = 1000;

export class PollingReplicas {
  private readonly leaseMs: number;
  private token: string | null = null;
  private renewedAt = 0;
  /** When the last renewal (or the acquisition) that succeeded was sent: the lease runs at least a lease from then. */
  private renewSentAt = 0;
  /**
   * The inbox's counts at the leader's last look, plus what it stored since: only the leader stores (replicas
   * claim and commit, which lower them), so these are bounds from above, and the leader asks Redis again only
   * once they near a limit (see room) instead of before every getupdates.
   */
  private backlogBound: InboxBacklog | null = null;
  private poller: PollingIngress | null = null;
  /** The leader's records of the confirmed offset in the store (see OffsetRecordPacer). */
  private offsets: OffsetRecordPacer | null = null;
  private stopping = false;
  private readonly stopped = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private wakeClaim: (() => void) | null = null;
  /** Stored updates not this replica's at its last claim (see InboxClaim.othersStored). */
  private othersStored = Infinity;
  /** Fetched updates being stored to be kept here (see store): counted in the room for the next. */
  private keeping = 0;
  private fail!: (error: unknown) => void;
  private finish!: () => void;
  /** Settles when polling ends for good: rejects with the leader's fatal IngressError (a refused token…), resolves after close. */
  readonly ended = new Promise<void>((resolve, reject) => {
    this.finish = resolve;
    this.fail = reject;
  });

  constructor(private readonly parts: PollingReplicaParts) {
    this.leaseMs = parts.leaseMs ?? POLL_LEASE_MS;
    this.ended.catch(() => undefined);
  }

  start(): void {
    this.parts.logger.info(
      { replica: this.parts.leadership.owner },
      'polling with replicas: the replica holding the lease polls, every replica handles updates',
    );
    this.loops.push(this.leaseLoop(), this.claimLoop());
  }

  /** No more fetching or claiming; what is in hand goes on (the drain waits for it). */
  stopAccepting(): void {
    this.stopping = true;
    this.stopped.abort();
    this.poller?.stopAccepting();
    this.wakeClaim?.();
  }

  /** After the drain: the leader confirms the offset (within `confirmMs`) and gives the lease up. */
  async close(confirmMs: number): Promise<void> {
    this.stopAccepting();
    await Promise.all(this.loops);
    const { poller, token } = this;
    if (poller && token !== null) {
      await poller.close(confirmMs);
      await this.parts.leadership.resign(token).catch(() => undefined);
      this.parts.metrics.pollingLeader.set(0);
    }
    this.finish();
  }

  private async leaseLoop(): Promise<void> {
    while (!this.stopping) {
      await this.leaseRound();
      await sleep(this.token === null ? ACQUIRE_EVERY_MS : Math.floor(this.leaseMs / 3), undefined, { signal: this.stopped.signal }).catch(() => undefined);
    }
  }

  private async leaseRound(): Promise<void> {
    const { token } = this;
    if (token !== null) {
      if (!(await this.stillLeader(token))) this.stepDown(token, 'the polling lease ran out or another replica took it');
      return;
    }
    if (this.parts.health.storeUnavailable !== null) return;
    const sentAt = Date.now();
    const state = await this.parts.leadership.acquire(this.leaseMs).catch(() => null);
    if (!state?.held || this.stopping) return;
    this.token = state.token;
    this.renewSentAt = sentAt;
    this.backlogBound = null;
    this.renewedAt = Date.now();
    this.parts.metrics.pollingLeader.set(1);
    this.parts.logger.info({ replica: this.parts.leadership.owner, token: Number(state.token) }, 'this replica holds the polling lease; polling for updates');
    this.startPoller(state.token);
  }

  /** Renews the lease: false once it is lost, or could not be renewed for a whole lease (the store was down). */
  private async stillLeader(token: string): Promise<boolean> {
    if (this.token !== token) return false;
    try {
      const sentAt = Date.now();
      if (!(await this.parts.leadership.renew(token, this.leaseMs))) return false;
      this.renewSentAt = sentAt;
      this.renewedAt = Date.now();
      return true;
    } catch {
      return Date.now() - this.renewedAt < this.leaseMs;
    }
  }

  private stepDown(token: string, why: string): void {
    if (this.token !== token) return;
    this.token = null;
    this.parts.metrics.pollingLeader.set(0);
    this.parts.logger.warn({ replica: this.parts.leadership.owner, token: Number(token) }, `${why}; this replica stops polling`);
    this.poller?.stopAccepting();
    this.poller = null;
    this.offsets?.cancel();
    this.offsets = null;
  }

  private startPoller(token: string): void {
    const { config, leadership } = this.parts;
    const fenced = (error: unknown) => {
      if (error instanceof ReplicaFencedError) this.stepDown(token, 'another replica holds the polling lease');
      throw error;
    };
    const offsets = new OffsetRecordPacer(
      (offset) => leadership.confirm(offset, token).catch(fenced),
      OFFSET_RECORD_EVERY_MS,
      (error, offset) => this.parts.logger.warn({ err: error, offset }, 'could not record the confirmed offset'),
    );
    this.offsets = offsets;
    const poller = new PollingIngress({
      ...pollingSettings(this.parts, this.parts.allowedUpdates),
      roomCheckMs: BACKLOG_CHECK_MS,
      pipeline: {
        // Fetched means stored: the offset passes an update once it is in Redis, kept here or for any replica to claim.
        handle: async (update: Update) => {
          const { result, begun } = await this.store(update, token).catch(fenced);
          // Another update under this id is still in hand (a new id sequence): not stored, so not confirmed.
          if (result === 'id_busy') throw new StoreUnavailableError(`update ${update.update_id}: its id is still in use`);
          if (result === 'stored' && this.backlogBound) {
            this.backlogBound = { unclaimed: this.backlogBound.unclaimed + 1, stored: this.backlogBound.stored + 1 };
          }
          if (begun) this.handleHere(update, begun);
          else this.wakeClaim?.();
        },
        confirm: (offset) => offsets.confirm(offset, { now: this.stopping }),
        // The service keeps what is not fetched yet: fetch more only while the replicas keep up (fewer than a batch of
        // chats' next updates wait for one) and the inbox holds fewer than delivery.max_pending updates in all.
        room: async () => {
          const { limit } = config.polling;
          const roomIn = ({ unclaimed, stored }: InboxBacklog) => (unclaimed >= limit ? 0 : config.delivery.maxPending - stored);
          const bound = this.backlogBound;
          if (bound && roomIn(bound) >= limit) return roomIn(bound);
          this.backlogBound = await leadership.backlog();
          return roomIn(this.backlogBound);
        },
        // The confirming getupdates is asked for only while this replica leads (its stores and confirms are fenced
        // in Redis as well): a lease renewed less than half a lease ago still runs, so no renewal is needed here.
        mayConfirm: async (offset) => {
          if (this.token === token && Date.now() - this.renewSentAt < this.leaseMs / 2) return true;
          if (await this.stillLeader(token)) return true;
          this.stepDown(token, `offset ${offset} not confirmed: the lease is lost`);
          return false;
        },
      },
    });
    this.poller = poller;
    void poller.start();
    poller.done.then(
      () => {
        if (!this.stopping) this.stepDown(token, 'polling ended');
      },
      (error: unknown) => this.fail(error),
    );
  }

  /**
   * Stores a fetched update. One the leader can start at once (nothing of its chat in hand here, room for it) it
   * keeps when the update heads its chat's queue: stored as its own and begun in the same step, so neither a claim
   * nor a begin is asked of Redis for it. The rest is stored unclaimed, for whichever replica has room.
   */
  private async store(update: Update, token: string): Promise<AcceptedWithRead> {
    const { pipeline, leadership } = this.parts;
    const scope = leadership.acceptAndKeep && this.room() > 0 ? pipeline.beginsWithStore(update) : null;
    if (!scope) return { result: await leadership.accept(update, token) };
    this.keeping += 1;
    try {
      return await leadership.acceptAndKeep!(update, token, scope);
    } finally {
      this.keeping -= 1;
    }
  }

  /** How many more updates this replica may take now: delivery.concurrency less those in hand and those being kept. */
  private room(): number {
    return this.parts.config.delivery.concurrency - this.parts.pipeline.inFlight - this.keeping;
  }

  /** An update finished here wakes the claim loop only while other updates are stored (see claimLoop). */
  private finished(): void {
    if (this.othersStored > 0) this.wakeClaim?.();
  }

  /** Handles an update this replica claimed or kept; one cut short stays in the inbox under its name. */
  private handleHere(update: Update, begun?: BegunRead): void {
    this.parts.pipeline.handleClaimed(update, begun).then(
      () => this.finished(),
      // Cut short (a stop, an outage): it stays in the inbox under this replica's name and is taken up again.
      (error: unknown) => this.parts.logger.debug({ err: error, update_id: update.update_id }, 'update not handled now; it stays in the shared inbox'),
    );
  }

  /**
   * Takes stored updates while there is room, up to delivery.concurrency chats at once: what one replica
   * cannot take is left for the others. An update finished here wakes the loop only while other updates are
   * stored (its chat's next one may be claimable now, and is taken at once: a chat tends to stay with the
   * replica that took it); when every stored update was this replica's, only a new store (the leader's, which
   * wakes it) can give it more, and an idle replica looks for other leaders' stores at the idle pace.
   */
  private async claimLoop(): Promise<void> {
    const { leadership, health } = this.parts;
    let idleMs = 5;
    while (!this.stopping) {
      const room = this.room();
      let claimed: Update[] = [];
      if (room > 0 && health.storeUnavailable === null) {
        const claim = await leadership.claim(room).catch(() => null);
        claimed = claim?.updates ?? [];
        this.othersStored = claim?.othersStored ?? Infinity;
      }
      for (const update of claimed) this.handleHere(update);
      const { othersStored } = this;
      if (othersStored === 0) idleMs = CLAIM_IDLE_MAX_MS;
      else idleMs = claimed.length > 0 ? 5 : Math.min(CLAIM_IDLE_MAX_MS, idleMs * 2);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, idleMs);
        this.wakeClaim = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}
