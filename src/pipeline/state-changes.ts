// Which of a decision's actions the pipeline commits with the update's done record — state changes, and the
// effects for the outbox (with the ids they get from what caused them) — and which reach the outside world
// before that commit (the replies, answers and edits of the update's own chat).
import type { Action, CancelEffectsAction, EffectAction } from '../engine/actions.js';
import type { NewEffect } from './outbox-port.js';
import type { StateChange, StateCommit, StateScope } from './ports.js';

export function isStateChange(action: Action): action is StateChange {
  return action.type === 'set_state' || action.type === 'set_flow';
}

/** Committed with the record rather than performed before it. */
function isCommitted(action: Action): boolean {
  return action.type === 'set_state' || action.type === 'set_flow' || action.type === 'effect' || action.type === 'cancel_effects';
}

/** A decision's actions, by what the pipeline does with them, each in order. */
export interface SplitActions {
  /** Performed before the commit. */
  readonly effects: readonly Action[];
  readonly changes: readonly StateChange[];
  /** For the outbox. */
  readonly outbox: readonly EffectAction[];
  /** Replace keys whose pending effects the commit drops. */
  readonly cancel: readonly string[];
}

const NOTHING: readonly never[] = [];

/** Splits a decision's actions; most decisions commit nothing, and then nothing is copied. */
export function splitStateChanges(actions: readonly Action[]): SplitActions {
  if (!actions.some(isCommitted)) return { changes: NOTHING, effects: actions, outbox: NOTHING, cancel: NOTHING };
  return {
    changes: actions.filter(isStateChange),
    effects: actions.filter((action) => !isCommitted(action)),
    outbox: actions.filter((action): action is EffectAction => action.type === 'effect'),
    cancel: actions.flatMap((action) => (action.type === 'cancel_effects' ? (action as CancelEffectsAction).replaceKeys : [])),
  };
}

/**
 * The outbox's records of a decision's effects, with ids from what caused them and their position, so a retry
 * or a crash finds the same ones: for an update, the position alone (the store adds the update's id and
 * fingerprint: see `UpdateLedger.commit`); for work no update brings, `cause` and the position.
 */
export function newEffects(cause: string | null, effects: readonly EffectAction[], scope: StateScope, source: string | null, now: number): NewEffect[] {
  return effects.map((action, i) => ({
    id: cause === null ? String(i) : `${cause}.${i}`,
    kind: action.kind,
    payload: action.payload,
    dueAt: action.dueAt ?? now,
    ...(action.orderKey !== undefined ? { orderKey: action.orderKey } : {}),
    ...(action.replaceKey !== undefined ? { replaceKey: action.replaceKey } : {}),
    ...(action.lateAfterMs !== undefined ? { lateAfterMs: action.lateAfterMs } : {}),
    ...(action.giveUpAfterMs !== undefined ? { giveUpAfterMs: action.giveUpAfterMs } : {}),
    ...(scope.userId !== null ? { userId: scope.userId } : {}),
    ...(scope.chatId !== null ? { chatId: scope.chatId } : {}),
    ...(source !== null ? { source } : {}),
  }));
}

/**
 * What a commit writes beside the done mark: the state changes, the effects for the outbox and the cancelled ones;
 * null when nothing. An update's effects are numbered by position (the store derives their ids from the update);
 * work no update brings names its own `cause`.
 */
export function commitOf(split: SplitActions, scope: StateScope, ruleId: string | null, cause: string | null, now: () => number): StateCommit | null {
  const { changes, outbox, cancel } = split;
  if (changes.length === 0 && outbox.length === 0 && cancel.length === 0) return null;
  if (outbox.length === 0 && cancel.length === 0) return { scope, changes };
  return { scope, changes, effects: newEffects(cause, outbox, scope, ruleId, now()), cancel };
}
