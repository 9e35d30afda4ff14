// Work no update brings, walked like an update in its chat's turn: a flow that timed out, and a hand-off's
// signals (the topic known, the end, the idle time). Each is decided on the state of that moment and committed
// before its replies are sent, so a crash can lose a reply but never send it twice. The update's own walk is
// update-pipeline.ts.
import { TokenRejectedError } from '../api/failure.js';
import { decide } from '../engine/decide.js';
import type { FlowTimeoutEvent } from '../engine/events.js';
import type { HandoffSignalEvent } from '../engine/handoff.js';
import type { ConversationState } from '../engine/state.js';
import { explainHandled } from './handled-log.js';
import type { PerformOutcome, UpdatePipelineOptions } from './pipeline-options.js';
import { SequenceAbortedError, type StateCommit } from './ports.js';
import { commitOf, splitStateChanges } from './state-changes.js';

/** After a durable commit: flow timers move; stored effects are performed now. */
export function announceCommit(options: UpdatePipelineOptions, commit: StateCommit): void {
  options.onStateCommitted?.(commit);
  if ((commit.effects?.length ?? 0) > 0) options.onEffectsCommitted?.();
}

/** What the update pipeline lends this work: whether a refused token stopped everything, and how to say it did. */
export interface TurnOwner {
  stopped(): boolean;
  stopForToken(error: TokenRejectedError): void;
}

export class WorkInTurn {
  constructor(
    private readonly options: UpdatePipelineOptions,
    private readonly owner: TurnOwner,
  ) {}

  /**
   * The runtime's timer says a user's flow in a chat may be due: under the chat's turn, a flow_timeout event
   * is decided on the state of that moment (nothing happens when the user moved on). The flow is left
   * durably first and the timeout reply sent after, so a crash can lose that reply but never send it twice;
   * a stop before the commit leaves the flow to time out at the next start.
   */
  flowTimeout(chatId: number, userId: number): Promise<void> {
    if (this.owner.stopped()) return Promise.resolve();
    return this.options.sequencer
      .run(`chat:${chatId}`, (signal) => this.runTimeout(chatId, userId, signal))
      .catch((error: unknown) => {
        if (error instanceof SequenceAbortedError || error instanceof TokenRejectedError) return;
        this.options.logger.error({ err: error, chat_id: chatId, user_id: userId }, 'flow timeout failed');
        this.options.metrics.error('handler_failed');
      });
  }

  /**
   * A hand-off signal (the topic known, the end, the idle time) for a customer, decided and committed in their
   * chat's turn, which the caller (the outbox, performing a `handoff` effect under that chat's key) holds;
   * `cause` names it, so a repeated attempt gives its effects the same ids.
   */
  async handoffSignal(event: HandoffSignalEvent, cause: string, signal: AbortSignal): Promise<void> {
    const ruleId = await this.runInTurn(event, () => cause, signal);
    if (ruleId !== false) this.options.logger.info({ chat_id: event.chat.id, rule: ruleId }, 'hand-off signal handled');
  }

  private async runTimeout(chatId: number, userId: number, signal: AbortSignal): Promise<void> {
    const event = { kind: 'flow_timeout', chat: { id: chatId }, from: { id: userId } } as const;
    const ruleId = await this.runInTurn(event, (state) => `t${chatId}_${userId}_${state.flow?.lastActivity ?? 0}`, signal);
    if (ruleId === false) {
      this.options.logger.debug({ chat_id: chatId, user_id: userId }, 'flow timeout: nothing to do (the user moved on, or another replica timed the flow out)');
      return;
    }
    this.options.logger.info({ chat_id: chatId, user_id: userId, rule: ruleId }, 'flow timed out');
  }

  /**
   * Decided on the state of that moment and committed (with the flow it was decided on, which a shared store
   * checks) before its replies are sent. The rule that answered, or false when there was nothing to do or another
   * replica did it.
   */
  private async runInTurn(
    event: FlowTimeoutEvent | HandoffSignalEvent,
    causeOf: (state: ConversationState) => string,
    signal: AbortSignal,
  ): Promise<string | null | false> {
    const { options } = this;
    const started = performance.now();
    const scope = { chatId: event.chat.id, userId: event.from.id };
    const state = await options.states.load(scope);
    const ruleSet = options.rules.current;
    const decision = (options.decide ?? decide)(event, ruleSet, state, options.context);
    const split = splitStateChanges(decision.actions);
    const now = options.context.now ?? Date.now;
    const commit = { ...commitOf(split, scope, decision.ruleId, causeOf(state), now)!, flowWas: state.flow };
    // Replicas each time the flows they know: the first to commit leaving it sends the reply, the others find it gone.
    if (split.changes.length === 0 || !(await options.ledger.commitState(commit))) return false;
    announceCommit(options, commit);
    let outcome: PerformOutcome | null;
    try {
      outcome = await options.perform(split.effects, { update: null, ruleId: decision.ruleId }, signal);
    } catch (error) {
      if (error instanceof TokenRejectedError) this.owner.stopForToken(error);
      throw error;
    }
    const handled = { update: null, event, decision, ruleSet, changes: split.changes, started, outcome, analytics: {} };
    options.onHandled?.(handled, explainHandled(handled));
    return decision.ruleId;
  }
}
