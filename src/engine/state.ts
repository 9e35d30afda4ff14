// The conversation state the engine reads while deciding: the variables of the event's user (shared by all
// the chats of that user), chat (shared by its members) and member (this user in this chat), and where this
// user stands in a flow in this chat. The engine never writes it; it asks for changes with set_state and set_flow actions, which the
// caller commits.

import type { JsonValue } from './actions.js';

/** A variable's value: a text of at most {@link MAX_VALUE_LENGTH} characters, or a finite number. */
export type StateValue = string | number;

/** The longest text a variable or a flow answer keeps; longer texts from `set` are cut, longer answers are retried. */
export const MAX_VALUE_LENGTH = 1024;

/** Where a user stands in a flow, in one chat. */
export interface FlowPosition {
  /** The flow's id. */
  readonly flowId: string;
  /** The id of the step whose answer is awaited. */
  readonly stepId: string;
  /** The answers so far, by step id ({{flow.ID}}). */
  readonly values: Readonly<Record<string, StateValue>>;
  /** When the user last moved the flow on (started it, answered, got a retry), in ms since the epoch; the timeout counts from here. */
  readonly lastActivity: number;
  /** The JSON answers of steps a backend call accepted, by step id ({{flow.ID.PATH}}); absent when none. */
  readonly results?: Readonly<Record<string, JsonValue>>;
  /** The group whose join request this flow answers (a flow that `event: join_request` started in private); absent otherwise. */
  readonly joinChat?: number;
}

/** A read-only snapshot of the state of the event's user and chat. */
export interface ConversationState {
  /** This user's variables ({{var.user.x}}), the same in every chat. */
  readonly user: Readonly<Record<string, StateValue>>;
  /** This chat's variables ({{var.chat.x}}), shared by all its members. */
  readonly chat: Readonly<Record<string, StateValue>>;
  /** This user's variables in this chat ({{var.member.x}}: warnings, votes, `messages`); absent when none are kept. */
  readonly member?: Readonly<Record<string, StateValue>>;
  /** This user's flow in this chat; absent (or null) when the user is in none. */
  readonly flow?: FlowPosition | null;
}

/** No state at all: what every conversation starts with. */
export const EMPTY_STATE: ConversationState = Object.freeze({ user: Object.freeze({}), chat: Object.freeze({}), flow: null });

/** The value of `key` in a record of variables or answers; own keys only, so `constructor` or `__proto__` are plain names. */
export function valueIn(record: Readonly<Record<string, StateValue>> | undefined, key: string): StateValue | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Whose variables a `set_state` changes: the user's (every chat), the chat's, or the user's in this chat. */
export type VariableOwner = 'user' | 'chat' | 'member';

/** The variables conditions, `set` and templates read, taken from a state. */
export function variablesOf(state: ConversationState): {
  readonly user: Readonly<Record<string, StateValue>>;
  readonly chat: Readonly<Record<string, StateValue>>;
  readonly member: Readonly<Record<string, StateValue>>;
} {
  return { user: state.user, chat: state.chat, member: state.member ?? EMPTY_STATE.user };
}

/** The state changes among a decision's actions (set_state, set_flow); anything else is ignored. */
export type StateChange =
  | { readonly type: 'set_state'; readonly scope: VariableOwner; readonly key: string; readonly value: StateValue | null; readonly userId?: number }
  | { readonly type: 'set_flow'; readonly flow: FlowPosition | null; readonly chatId?: number };

/**
 * The state after a decision's set_state and set_flow actions, applied in order to a copy (other actions
 * are skipped): what a store holds for the event's user and chat once the update is committed.
 */
export function applyStateChanges(state: ConversationState, actions: readonly { readonly type: string }[]): ConversationState {
  let user: Record<string, StateValue> | undefined;
  let chat: Record<string, StateValue> | undefined;
  let member: Record<string, StateValue> | undefined;
  let flow = state.flow ?? null;
  for (const action of actions) {
    // A flow in another chat of the user (a join request's questions in private) is not this chat's.
    if (action.type === 'set_flow' && (action as StateChange & { type: 'set_flow' }).chatId === undefined)
      flow = (action as StateChange & { type: 'set_flow' }).flow;
    if (action.type !== 'set_state') continue;
    const change = action as StateChange & { type: 'set_state' };
    // Another member's variables (someone this user added) are not part of this user's state.
    if (change.userId !== undefined) continue;
    const record =
      change.scope === 'user' ? (user ??= { ...state.user }) : change.scope === 'chat' ? (chat ??= { ...state.chat }) : (member ??= { ...state.member });
    if (change.value === null) delete record[change.key];
    else Object.defineProperty(record, change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
  }
  const members = member ?? state.member;
  return { user: user ?? state.user, chat: chat ?? state.chat, ...(members ? { member: members } : {}), flow };
}
