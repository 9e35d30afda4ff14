// The conversation state the engine reads while deciding: per-user and per-chat key/value pairs. The engine
// never writes it; it asks for changes with set_state actions, which the caller commits.

/** A read-only snapshot of the state of the event's user and chat. */
export interface ConversationState {
  readonly user: Readonly<Record<string, string | number>>;
  readonly chat: Readonly<Record<string, string | number>>;
}

/** No state at all: what every conversation starts with (and, until state is stored, all there is). */
export const EMPTY_STATE: ConversationState = Object.freeze({ user: Object.freeze({}), chat: Object.freeze({}) });
