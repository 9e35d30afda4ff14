// What the update pipeline is built from (its ports, the live rules, the perform step and its settings) and what
// the perform step, the one part of the walk that reaches the outside world, is given and answers.
import type { TokenRejectedError } from '../api/failure.js';
import type { Update } from '../api/types.js';
import type { Action } from '../engine/actions.js';
import type { decide, DecideContext } from '../engine/decide.js';
import type { RuleSet } from '../engine/rule-set.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import type { BackendCaller } from './backend-port.js';
import type { Explanation } from './explanation.js';
import type { HandledUpdate } from './handled-log.js';
import type { ChatSequencer, ChatStateStore, StateCommit, UpdateLedger } from './ports.js';

/** What performing a decision's actions (other than state changes) came to, for the log line. */
export interface PerformOutcome {
  /** Messages the service accepted. */
  readonly sent: number;
  /** A reply (or part of one) was given up on. */
  readonly dropped: boolean;
}

/**
 * Performs the actions that reach the outside world (send, answer, edit), in order. Throws TokenRejectedError
 * on a 401 (the update stays unhandled) and an AbortError once `signal` aborts; other failures are its own to handle.
 */
export type PerformActions = (actions: readonly Action[], about: PerformContext, signal: AbortSignal) => Promise<PerformOutcome | null>;

/** What the actions are for: the update (null for a flow timeout, which no update brings) and the rule that decided them (null when none did). */
export interface PerformContext {
  readonly update: Update | null;
  readonly ruleId: string | null;
}

export interface UpdatePipelineOptions {
  ledger: UpdateLedger;
  states: ChatStateStore;
  sequencer: ChatSequencer;
  /** The live rule set (a RuleWatcher); read once per update, so a reload never mixes two sets. */
  rules: { readonly current: RuleSet };
  context: DecideContext;
  perform: PerformActions;
  /** The operator's backends, for decisions that wait for one (`call`); without it every call ends in its `error` branch. */
  backends?: BackendCaller;
  /** The engine's decide (the default); tests put another pure decision function here. */
  decide?: typeof decide;
  logger: Logger;
  metrics: ServiceMetrics;
  /** `log.unmatched`: log the text of messages that only a fallback (or nothing) answered. */
  logUnmatched?: boolean;
  /** Accepted-and-unfinished updates beyond which `accept` answers 'overloaded'. */
  maxPending: number;
  /** Webhook: how long a request waits for its update to be handled before it is stored and acknowledged (see held-updates.ts). */
  holdMs?: number;
  /**
   * Webhook: store every update before handling it, and answer at once (a shared store orders a chat's updates
   * across replicas by their store); otherwise requests are held while their update is handled.
   */
  storeFirst?: boolean;
  /** Told once when the token was refused (401): the service must stop taking updates. */
  onTokenRejected?: (error: TokenRejectedError) => void;
  /** Told after every durable commit that changed state (the runtime reschedules flow timeouts from it). */
  onStateCommitted?: (commit: StateCommit) => void;
  /** Told after a durable commit that stored effects (the outbox room looks for due ones at once). */
  onEffectsCommitted?: () => void;
  /**
   * Told of every update handled (after its commit), with why it was answered as it was: the data of the
   * `update handled` log line. The sandbox companion shows it under the answers on the chat page.
   */
  onHandled?: (handled: HandledUpdate, explanation: Explanation) => void;
}
