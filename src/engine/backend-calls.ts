// Calls to the operator's backends, as the engine sees them: a decision that needs a backend's answer ends in
// a pending call (the request, rendered now, and how the decision goes on once the answer is known); the caller
// makes the request and hands the result to `continueDecision`, a second pure step. The engine never does the
// I/O: `decide` stays a function of the event, the rules and the state, and so does each continuation.
import type { JsonValue } from './actions.js';
import type { Decision } from './decide-types.js';

/** The HTTP methods a call or a notify may use. */
export type BackendMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request to one of the operator's backends, rendered by the engine. */
export interface BackendRequest {
  /** The backend's name (`backends:` of the configuration). */
  readonly backend: string;
  readonly method: BackendMethod;
  /** The path and query after the backend's url, every inserted value percent-encoded for its place. */
  readonly path: string;
  /** The path as the rule writes it (`/orders/{{match.num}}`): what logs show, never the values in it. */
  readonly template: string;
  /** The JSON body (its texts rendered), for methods that send one. */
  readonly body?: JsonValue;
}

/**
 * Why a call counts as an error although (or because no) status came: no answer in time, a network error, an
 * answer too large, not JSON or text, a JSON answer that does not parse, a redirect to another host, an open
 * circuit, a path a value would have changed, a backend the configuration does not declare.
 */
export type BackendFailure = 'timeout' | 'network' | 'too_large' | 'unsupported_type' | 'bad_json' | 'redirect' | 'circuit_open' | 'bad_path' | 'not_declared';

/** What came of a request, as the engine reads it. */
export interface BackendResult {
  /** The HTTP status; null when none came. */
  readonly status: number | null;
  /** The answer: parsed JSON, a text, or undefined (empty, or not read). */
  readonly body?: JsonValue;
  /** Set when the call failed (see {@link BackendFailure}); a status that is not 2xx alone is no failure. */
  readonly failure?: BackendFailure;
}

/** A decision waiting for a backend: the request, and the rest of the decision once its result is known. */
export interface PendingCall {
  readonly request: BackendRequest;
  /** Pure: the decision's remaining actions for this result (which may end in another call). */
  readonly resume: (result: BackendResult) => Decision;
}

/** A call a decision made, for the log and for whoever explains the decision: never the filled-in path or the body. */
export interface CallRecord {
  readonly backend: string;
  readonly method: BackendMethod;
  readonly template: string;
  readonly status: number | null;
  readonly failure?: BackendFailure;
}

/** The most calls one update may make (a step's check, then the flow's done call, …): a bound on any chain. */
export const MAX_CALLS_PER_UPDATE = 8;

/**
 * The decision once its pending call's result is known: the actions decided before the call, then those of
 * its continuation; the call is recorded. The continuation may end in another call (a flow step accepted by a
 * backend whose done branch calls one): the caller then makes that one and continues again.
 */
export function continueDecision(decision: Decision, result: BackendResult): Decision {
  const pending = decision.call!;
  const next = pending.resume(result);
  const { request } = pending;
  const record: CallRecord = {
    backend: request.backend,
    method: request.method,
    template: request.template,
    status: result.status,
    ...(result.failure ? { failure: result.failure } : {}),
  };
  return {
    ruleId: next.ruleId ?? decision.ruleId,
    actions: decision.actions.length === 0 ? next.actions : [...decision.actions, ...next.actions],
    calls: [...(decision.calls ?? []), record, ...(next.calls ?? [])],
    ...(next.call ? { call: next.call } : {}),
  };
}

/** The branch key a result picks among those `on` gives: the status when listed, else `ok` for a 2xx, else `error`. */
export function branchKey(result: BackendResult, listed: (key: string) => boolean): string | undefined {
  if (result.failure === undefined && result.status !== null) {
    const status = String(result.status);
    if (listed(status)) return status;
    if (result.status >= 200 && result.status < 300) return listed('ok') ? 'ok' : undefined;
  }
  return listed('error') ? 'error' : undefined;
}

/** Whether the result is a backend's 2xx answer. */
export function succeeded(result: BackendResult): boolean {
  return result.failure === undefined && result.status !== null && result.status >= 200 && result.status < 300;
}
