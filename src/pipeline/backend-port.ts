// The port through which the update pipeline reaches the operator's backends while an update is handled: one
// request in, its result out. How the request is made (the HTTP client, retries, the circuit breaker, the size
// limit) is behind it, in src/backends/; the pipeline only decides when, under which key, and what the user sees
// meanwhile.
import type { Update } from '../api/types.js';
import type { BackendRequest, BackendResult } from '../engine/backend-calls.js';

/** Which call of which update a request is: its Idempotency-Key derives from both. */
export interface CallCause {
  readonly update: Update;
  /** The call's position among the calls made for the update (0, 1, …): the same on every run of the update. */
  readonly index: number;
}

/** The operator's backends, as the pipeline calls them. */
export interface BackendCaller {
  /**
   * Makes the request and resolves with what came of it — a backend's failure is a result, never a throw — with
   * an Idempotency-Key (for methods other than GET) derived from `cause`, so a run of the same update after a crash
   * or on another replica sends the same key. Rejects only once `signal` aborts (a stop).
   */
  call(request: BackendRequest, cause: CallCause, signal: AbortSignal): Promise<BackendResult>;
}
