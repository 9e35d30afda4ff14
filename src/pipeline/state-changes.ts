// Which of a decision's actions change the conversation state (the pipeline commits them with the update's
// done record) and which reach the outside world (performed before that commit).
import type { Action } from '../engine/actions.js';
import type { StateChange } from './ports.js';

export function isStateChange(action: Action): action is StateChange {
  return action.type === 'set_state' || action.type === 'set_flow';
}

/** The state changes and the other actions, each in order; most decisions change no state, and then nothing is copied. */
export function splitStateChanges(actions: readonly Action[]): { changes: readonly StateChange[]; effects: readonly Action[] } {
  if (!actions.some(isStateChange)) return { changes: [], effects: actions };
  return { changes: actions.filter(isStateChange), effects: actions.filter((action) => !isStateChange(action)) };
}
