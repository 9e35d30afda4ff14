// How conversation state is laid out in a store, shared by every store implementation: one JSON document
// per owner — `user:<id>` (a user's variables, across chats), `chat:<id>` (a chat's variables),
// `member:<chat id>:<user id>` (a user's variables in one chat) and `flow:<chat id>:<user id>` (where a user stands in a flow in one chat) — and how a commit's changes turn
// into new documents. A new kind of state adds its key and its case here, and every store keeps working.
import type { ConversationState, FlowPosition, StateValue } from '../engine/state.js';
import { EMPTY_STATE } from '../engine/state.js';
import { numberOf } from '../engine/variables.js';
import type { StateChange, StateScope } from '../pipeline/ports.js';

/** One stored document: a JSON object. */
export type StateDocument = Readonly<Record<string, unknown>>;

type Variables = Record<string, StateValue>;

/** The document keys a scope reads; null where the scope has no such owner (a flow needs both a chat and a user). */
export function documentKeys(scope: StateScope): { user: string | null; chat: string | null; member: string | null; flow: string | null } {
  const both = scope.chatId !== null && scope.userId !== null;
  return {
    user: scope.userId === null ? null : `user:${scope.userId}`,
    chat: scope.chatId === null ? null : `chat:${scope.chatId}`,
    member: both ? `member:${scope.chatId}:${scope.userId}` : null,
    flow: both ? `flow:${scope.chatId}:${scope.userId}` : null,
  };
}

/** The document a variable change goes to; null when the event has no such owner. */
function changeKey(scope: StateScope, keys: ReturnType<typeof documentKeys>, change: StateChange & { type: 'set_state' }): string | null {
  if (change.scope === 'user') return keys.user;
  if (change.scope === 'chat') return keys.chat;
  // Another member of the chat (someone this user added).
  if (change.userId !== undefined) return scope.chatId === null ? null : `member:${scope.chatId}:${change.userId}`;
  return keys.member;
}

/** The document a flow change goes to: the scope's, or the user's flow in the other chat it names (a join request's questions in private). */
function flowKey(scope: StateScope, keys: ReturnType<typeof documentKeys>, change: StateChange & { type: 'set_flow' }): string | null {
  if (change.chatId === undefined) return keys.flow;
  return scope.userId === null ? null : `flow:${change.chatId}:${scope.userId}`;
}

/** Every document a commit reads and may write: the scope's own, and other members' its changes name. */
export function commitKeys(scope: StateScope, changes: readonly StateChange[]): string[] {
  const keys = documentKeys(scope);
  const out = new Set(Object.values(keys).filter((key): key is string => key !== null));
  for (const change of changes) {
    const key = change.type === 'set_flow' ? flowKey(scope, keys, change) : changeKey(scope, keys, change);
    if (key !== null) out.add(key);
  }
  return [...out];
}

/** The state a scope sees, from the documents `read` returns (undefined: none stored). */
export function stateOf(scope: StateScope, read: (key: string) => StateDocument | undefined): ConversationState {
  const keys = documentKeys(scope);
  const user = keys.user === null ? undefined : read(keys.user);
  const chat = keys.chat === null ? undefined : read(keys.chat);
  const member = keys.member === null ? undefined : read(keys.member);
  const flow = keys.flow === null ? undefined : read(keys.flow);
  if (!user && !chat && !member && !flow) return EMPTY_STATE;
  return {
    user: (user as Variables | undefined) ?? EMPTY_STATE.user,
    chat: (chat as Variables | undefined) ?? EMPTY_STATE.chat,
    ...(member ? { member: member as Variables } : {}),
    flow: (flow as FlowPosition | undefined) ?? null,
  };
}

/**
 * The documents after `changes`, applied in order to what `read` returns now: key → new document, or null
 * when it became empty (the store deletes it). Applied at commit, against the store's latest documents, so
 * two chats of one user changing different variables at once both keep their change, and an increment
 * adds to the latest value rather than to the one decide read.
 */
export function applyChanges(
  scope: StateScope,
  changes: readonly StateChange[],
  read: (key: string) => StateDocument | undefined,
): Map<string, StateDocument | null> {
  const keys = documentKeys(scope);
  const written = new Map<string, StateDocument | null>();
  const current = (key: string) => (written.has(key) ? (written.get(key) ?? undefined) : read(key));
  for (const change of changes) {
    if (change.type === 'set_flow') {
      // A flow belongs to a user in a chat; an event without both has none to change.
      const key = flowKey(scope, keys, change);
      if (key !== null) written.set(key, change.flow as StateDocument | null);
      continue;
    }
    const key = changeKey(scope, keys, change);
    // A change for an owner the event does not have (a user variable for a channel post) has nowhere to go.
    if (key === null) continue;
    const document: Variables = { ...(current(key) as Variables | undefined) };
    const latest = numberOf(Object.hasOwn(document, change.key) ? document[change.key] : undefined);
    const value = change.increment !== undefined && change.value !== null ? (latest ?? 0) + change.increment : change.value;
    if (value === null) delete document[change.key];
    // defineProperty: a key such as `__proto__` is a plain name, not the prototype.
    else Object.defineProperty(document, change.key, { value, enumerable: true, writable: true, configurable: true });
    written.set(key, Object.keys(document).length === 0 ? null : document);
  }
  return written;
}
