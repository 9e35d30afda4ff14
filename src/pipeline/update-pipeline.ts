// The life of one update, in one place: accept (webhook) → already seen? → per-chat queue → load state →
// decide (and, when it waits for a backend, the intent, the calls and the rest of the decision) → perform
// the actions → commit (done + state changes, one record) → the ingress confirms; what a failure on the way
// does is in commit-failures.ts. The ledger alone decides what was handled; ingress adapters only hand
// updates in and learn when they may confirm the offset or answer 200.
import { TokenRejectedError } from '../api/failure.js';
import type { Update } from '../api/types.js';
import { decide, type Decision } from '../engine/decide.js';
import { chatKeyOf, toEvent, type BotEvent } from '../engine/events.js';
import type { HandoffSignalEvent } from '../engine/handoff.js';
import { privateChatMark } from '../engine/status-events.js';
import { recordDecision, type DecisionAnalyticsOptions } from '../ops/unmatched.js';
import { commitOnceStored, endFailedUpdate } from './commit-failures.js';
import { completeCalls } from './update-calls.js';
import { explainHandled, ignoredKind, logHandled, type HandledUpdate } from './handled-log.js';
import { DEFAULT_HOLD_MS, HeldUpdates, type AcceptOutcome } from './held-updates.js';
import type { UpdatePipelineOptions } from './pipeline-options.js';
import { commitOf, splitStateChanges } from './state-changes.js';
import { SequenceAbortedError, StoreUnavailableError, type AcceptedWithRead, type BegunRead, type StateScope } from './ports.js';
import { announceCommit, WorkInTurn } from './work-in-turn.js';

export type { AcceptOutcome } from './held-updates.js';

export class UpdatePipeline {
  /** Updates in this run's hands (being stored, queued or running), by id: a second delivery joins the first. */
  private readonly flights = new Map<number, Promise<void>>();
  /** Being stored by `accept` (not in `flights` yet). */
  private readonly storing = new Set<number>();
  private tokenRejected: TokenRejectedError | undefined;
  private readonly holds: HeldUpdates;
  /** Updates between the start of their turn and their commit: the ledger may let a commit's sync wait for them. */
  private running = 0;
  /** recordDecision's options, one object for every update (`debug` follows the log level). */
  private readonly analyticsOptions: DecisionAnalyticsOptions;
  /** Flow timeouts and hand-off signals: walked in their chat's turn like an update. */
  private readonly inTurn: WorkInTurn;
  /** The clock effects are due by (a test's clock when the context has one, read at each use). */
  private readonly now = (): number => (this.options.context.now ?? Date.now)();

  constructor(private readonly options: UpdatePipelineOptions) {
    this.analyticsOptions = { logUnmatchedText: options.logUnmatched ?? false, debug: false };
    this.holds = new HeldUpdates({
      ledger: options.ledger,
      holdMs: options.holdMs ?? DEFAULT_HOLD_MS,
      inHand: (id) => this.flights.has(id) || this.storing.has(id),
      hasRoom: () => this.inFlight < options.maxPending,
      acceptStored: (update) => this.accept(update),
      start: (update) => {
        this.options.metrics.updatesReceived.inc();
        return this.track(update.update_id, this.queue(update));
      },
      keepForNextRun: (work, id) => this.keepForNextRun(work, id),
    });
    options.ledger.groupCommitsWhile?.(() => this.running > 0);
    this.inTurn = new WorkInTurn(options, { stopped: () => this.tokenRejected !== undefined, stopForToken: (error) => this.stopForToken(error) });
  }

  /** Updates accepted and not finished yet (being stored, queued or running). */
  get inFlight(): number {
    return this.flights.size + this.storing.size;
  }

  /** Whether this update is in this run's hands now (being stored, queued or running). */
  has(id: number): boolean {
    return this.flights.has(id) || this.storing.has(id);
  }

  /**
   * Webhook: what to answer the service's request for this update. Held while the update is handled (200 once
   * committed; stored in the inbox and 200 when that takes longer than the hold), or, with `storeFirst`, stored
   * and answered at once. `bodyBytes`: the size of the JSON text the update came in, when known (see HeldUpdates).
   */
  receive(update: Update, bodyBytes?: number): Promise<AcceptOutcome> {
    return this.options.storeFirst ? this.accept(update) : this.holds.receive(update, bodyBytes);
  }

  /** Webhook, store first: stores the update durably, then handles it in the background. Resolves once the service may be told 200. */
  async accept(update: Update): Promise<AcceptOutcome> {
    const id = update.update_id;
    const known = this.flights.has(id) || this.storing.has(id);
    if (!known && this.inFlight >= this.options.maxPending) return 'overloaded';
    // Counted before the store is awaited, so concurrent requests cannot overshoot the bound.
    if (!known) this.storing.add(id);
    let stored: AcceptedWithRead;
    try {
      stored = await this.storeAccepted(update, known);
    } finally {
      if (!known) this.storing.delete(id);
    }
    if (stored.result !== 'stored') return stored.result === 'known' ? 'duplicate' : 'id_busy';
    this.options.metrics.updatesReceived.inc();
    this.keepForNextRun(this.track(id, this.queue(update, stored.begun)), id);
    return 'accepted';
  }

  /**
   * Stores an accepted update; when the store can and the update will start at once here, with its intent and
   * its state read in the same step (see ChatStateStore.acceptAndBegin), which its run then takes up.
   */
  private storeAccepted(update: Update, known: boolean): Promise<AcceptedWithRead> {
    const scope = known ? null : this.beginsWithStore(update);
    if (scope) return this.options.states.acceptAndBegin!(update, scope);
    return this.options.ledger.accept(update).then((result) => ({ result }));
  }

  /**
   * The update's state scope when its store may take its intent and read its state as it stores it (see
   * ChatStateStore.acceptAndBegin): the store can, the update has something to decide on, and it would start at
   * once here (nothing of its chat in hand, a slot free); null otherwise.
   */
  beginsWithStore(update: Update): StateScope | null {
    const { states, sequencer } = this.options;
    if (!states.acceptAndBegin || !sequencer.runsAtOnce?.(chatKeyOf(update))) return null;
    const event = toEvent(update);
    return event ? scopeOf(event) : null;
  }

  /**
   * Start-up: what an earlier run stored and never finished, oldest first, ahead of anything new in its chat.
   * On a shared store, also while running: what an outage cut short and what dead replicas left.
   */
  async replayPending(): Promise<number> {
    const pending = await this.options.ledger.pending();
    // A shared store is asked again while running: an update this run is still storing is queued by its accept.
    for (const update of pending) if (!this.storing.has(update.update_id)) this.keepForNextRun(this.handle(update), update.update_id);
    return pending.length;
  }

  /**
   * Polling: handles the update unless it was handled before. Resolves once it is done (committed, or
   * dropped for good), so the offset may pass it; rejects when a stop or a refused token cut it short.
   */
  handle(update: Update): Promise<void> {
    if (this.tokenRejected) return Promise.reject(this.tokenRejected);
    const id = update.update_id;
    return this.flights.get(id) ?? this.track(id, this.unlessSeen(update));
  }

  /**
   * Polling: stores an update in hand (being handled) durably, so the offset may pass it before it is done (one
   * chat's backlog must not keep the others from being fetched); it is then handled from the store after a crash.
   * True once stored, or when this exact update was stored or committed already; false when another update holds its id.
   */
  async store(update: Update): Promise<boolean> {
    return (await this.options.ledger.accept(update)) !== 'id_busy';
  }

  /** Polling: how many more updates may be taken now (`maxPending` less the updates in hand). */
  room(): number {
    return this.options.maxPending - this.inFlight;
  }

  /**
   * Polling with replicas: an update this replica claimed from the shared inbox, or (the leader) kept as it
   * stored it, `begun` then (see PollLeadership.acceptAndKeep). A store whose commit takes the update out of the
   * inbox in the same step never holds a committed one there, so it is not looked up.
   */
  handleClaimed(update: Update, begun?: BegunRead): Promise<void> {
    if (this.tokenRejected) return Promise.reject(this.tokenRejected);
    const id = update.update_id;
    const known = this.flights.get(id);
    if (known) return known;
    this.options.metrics.updatesReceived.inc();
    return this.track(id, this.queue(update, begun));
  }

  private unlessSeen(update: Update): Promise<void> {
    const { ledger } = this.options;
    // A ledger that knows at once spares the update a hop through the event loop's promise queue.
    if (!ledger.seenNow) return ledger.seen(update).then((seen) => this.unlessKnown(update, seen));
    try {
      return this.unlessKnown(update, ledger.seenNow(update));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private unlessKnown(update: Update, seen: boolean): Promise<void> {
    if (seen) {
      this.options.logger.debug({ update_id: update.update_id }, 'update already handled; ignored');
      return Promise.resolve();
    }
    this.options.metrics.updatesReceived.inc();
    return this.queue(update);
  }

  /** Under the chat's turn (always awaited through `track`, which names a refused token as the reason it was cut short). */
  private queue(update: Update, begun?: BegunRead): Promise<void> {
    return this.options.sequencer.run(chatKeyOf(update), (signal) => this.run(update, signal, begun), update.update_id);
  }

  /** Under the chat's turn: load state, decide, perform, commit, log. `begun`: its intent was taken, and its state read, as it was stored. */
  private async run(update: Update, signal: AbortSignal, begun?: BegunRead): Promise<void> {
    const { ledger, logger, metrics } = this.options;
    // Timed only when the line is written or told: a number kept across the awaits below is boxed at each one.
    const started = logger.isLevelEnabled('info') || this.options.onHandled ? performance.now() : 0;
    const event = toEvent(update);
    // Counted in `running` until its commit is asked for (group commit: see UpdateLedger.groupCommitsWhile).
    let counted = true;
    this.running += 1;
    try {
      if (!event) {
        logger.debug({ update_id: update.update_id, kind: ignoredKind(update) }, 'update ignored: nothing the rules answer');
        counted = false;
        this.running -= 1;
        return await ledger.commit(update, null);
      }
      const scope = scopeOf(event);
      const { states } = this.options;
      // A store that takes the intent with the state (one round trip for both) has begun the update here (or as it stored it).
      const intent = !states.loadNow && states.loadAndBegin !== undefined;
      const state = states.loadNow ? states.loadNow(scope) : intent ? await states.loadAndBegin!(scope, update, begun) : await states.load(scope);
      const matchStarted = performance.now();
      const ruleSet = this.options.rules.current;
      let decision = (this.options.decide ?? decide)(event, ruleSet, state, this.options.context);
      metrics.matchDuration.observe((performance.now() - matchStarted) / 1000);
      // The intent before the first side effect, the result with the state after the last: after a crash,
      // only updates caught between the two can be answered twice (or call a backend twice, with the same key),
      // and the ledger names them. A decision waiting for a backend makes its calls between the two.
      const calls = decision.call !== undefined;
      if (calls) decision = await this.callBackends(update, scope.chatId, decision, signal, intent);
      // The store knows who can be written to in private (a broadcast's audience), variables or not: marked once.
      const reachable = privateChatMark(event, state, this.now);
      if (reachable) decision = { ...decision, actions: [...decision.actions, reachable] };
      this.analyticsOptions.debug = logger.isLevelEnabled('debug');
      const analytics = recordDecision(event, decision, ruleSet, metrics, this.analyticsOptions);
      const split = splitStateChanges(decision.actions);
      if (!calls && !intent && split.effects.length > 0) await ledger.begin(update);
      const outcome = await this.options.perform(split.effects, { update, ruleId: decision.ruleId }, signal);
      const commit = commitOf(split, scope, decision.ruleId, null, this.now);
      counted = false;
      this.running -= 1;
      // Awaited as it is (a .catch would add a step for every update); only a failure goes on to commitOnceStored.
      try {
        await ledger.commit(update, commit);
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        await commitOnceStored(ledger, update, commit, signal);
      }
      if (commit) announceCommit(this.options, commit);
      // The line's fields are gathered only when it is written or told (a service logging at warn does this for every update).
      if (logger.isLevelEnabled('info') || this.options.onHandled) {
        this.handled({ update, event, decision, ruleSet, changes: split.changes, started, outcome, analytics });
      }
    } catch (error) {
      if (counted) this.running -= 1;
      await endFailedUpdate(this.options, update, error, signal, (e) => this.stopForToken(e));
    }
  }

  /** The intent (a call may be a side effect), then the decision's backend calls, each continued by the engine. */
  private async callBackends(update: Update, chatId: number | null, decision: Decision, signal: AbortSignal, begun: boolean): Promise<Decision> {
    if (!begun) await this.options.ledger.begin(update);
    const { backends, sequencer, perform } = this.options;
    return completeCalls(decision, { update, chatId, backends, sequencer, perform, signal });
  }

  /** The record of a handled update: the log line, and whoever listens (the same explanation for both). */
  private handled(handled: HandledUpdate & { update: Update }): void {
    const explanation = explainHandled(handled);
    if (this.options.logger.isLevelEnabled('info')) logHandled(this.options.logger, handled, explanation);
    this.options.onHandled?.(handled, explanation);
  }

  /** The runtime's timer says a user's flow in a chat may be due (see WorkInTurn.flowTimeout). */
  flowTimeout(chatId: number, userId: number): Promise<void> {
    return this.inTurn.flowTimeout(chatId, userId);
  }

  /** A hand-off signal for a customer, in their chat's turn (see WorkInTurn.handoffSignal). */
  handoffSignal(event: HandoffSignalEvent, cause: string, signal: AbortSignal): Promise<void> {
    return this.inTurn.handoffSignal(event, cause, signal);
  }

  // Around the walk: what the ingress and the stop need.

  /** The service confirmed every update below `offset`. */
  confirm(offset: number): Promise<void> {
    return this.options.ledger.confirm(offset);
  }

  /** Resolves once every update handled so far is durable (asked before the service is told to forget them). */
  settle(): Promise<void> {
    const { ledger } = this.options;
    return ledger.settle ? ledger.settle() : Promise.resolve();
  }

  /** Waits for the work in flight up to `deadlineMs`, then abandons the rest (it stays unconfirmed, or stored). True when all finished. */
  async drain(deadlineMs: number, graceMs: number): Promise<boolean> {
    const clean = await this.options.sequencer.drain(deadlineMs, graceMs);
    if (!clean) this.options.logger.warn('shutdown deadline reached; updates in flight were abandoned (they stay unconfirmed, or in the inbox)');
    return clean;
  }

  /** After the drain: nothing more is started, so nothing runs while the store closes. */
  close(): void {
    this.options.sequencer.close();
  }

  private stopForToken(error: TokenRejectedError): void {
    if (this.tokenRejected) return;
    this.tokenRejected = error;
    this.options.logger.error('the token was refused (401 Unauthorized); no more updates are handled');
    // Other chats' sends would meet the same 401: stop them, they stay unhandled as well.
    this.options.sequencer.abort();
    this.options.onTokenRejected?.(error);
  }

  private track(id: number, work: Promise<void>): Promise<void> {
    const flight = work.then(
      () => {
        this.flights.delete(id);
      },
      (error: unknown) => {
        this.flights.delete(id);
        // Work cut short because the token was refused says so, not merely that it was aborted.
        throw this.tokenRejected && error instanceof SequenceAbortedError ? this.tokenRejected : error;
      },
    );
    this.flights.set(id, flight);
    return flight;
  }

  /** Stored in the inbox and cut short by a stop or a refused token: the next start handles it. */
  private keepForNextRun(work: Promise<void>, id: number): void {
    work.catch((error: unknown) => {
      // The outage itself is logged once by the store; each update it holds up is not worth a line of its own.
      if (error instanceof StoreUnavailableError)
        this.options.logger.debug({ update_id: id }, 'update not handled: the store is unavailable; kept in the inbox');
      else this.options.logger.warn({ err: error, update_id: id }, 'update not handled before shutdown; kept in the inbox for the next start');
    });
  }
}

/** Whose state the event reads and writes. */
function scopeOf(event: BotEvent): StateScope {
  return { chatId: event.chat?.id ?? null, userId: event.from?.id ?? null };
}
