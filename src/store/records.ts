// What every store keeps alike, whatever holds it (files, Redis, memory): the limits and retention rules of
// the records, and the shapes an operator sees of a user's state. A store's own layout stays in its folder.
import type { FlowPosition } from '../engine/state.js';
import type { StoredEffect } from '../pipeline/outbox-port.js';

/** The service keeps an unconfirmed update this long: after a quiet period this long, no remembered id can come back. */
export const SERVICE_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Default of `state.ttl`: 90 days. */
export const DEFAULT_STATE_TTL_MS = 90 * 86_400_000;

/** Default of `state.max_user_bytes`. */
export const DEFAULT_MAX_USER_BYTES = 16_384;

/** Largest serialised state of one commit (every document it writes); a commit whose documents would not fit keeps the done mark and logs the loss. */
export const MAX_STATE_LINE_BYTES = 1 << 20;

/**
 * Longest record that belongs to no update (a line of the file journal): a broadcast's campaign stores every
 * recipient's effect in one record, so that it is planned whole or not at all (about 200 bytes a recipient).
 */
export const MAX_RECORD_LINE_BYTES = 256 << 20;

/** A user's flow in one chat, as stored. */
export interface StoredFlow {
  readonly chatId: number;
  readonly userId: number;
  readonly position: FlowPosition;
}

/** A user's conversation state: their variables and their unfinished flows (chat variables are the chat's). */
export interface UserState {
  readonly userId: number;
  readonly variables: Readonly<Record<string, unknown>> | null;
  readonly flows: readonly {
    readonly chatId: number;
    readonly flowId: string;
    readonly stepId: string;
    readonly answers: unknown;
    readonly lastActivity: string;
  }[];
  /** The user's variables in each chat that keeps some (member.*). */
  readonly members?: readonly { readonly chatId: number; readonly variables: Readonly<Record<string, unknown>> }[];
}

/** Everything kept about one user: their state and the effects pending for them. */
export interface UserRecord extends UserState {
  /** Effects in the outbox that concern the user (a reminder, a message about them to another chat), soonest first. */
  readonly effects: readonly StoredEffect[];
}
