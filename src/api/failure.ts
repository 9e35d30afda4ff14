// Sorts a failed Bot API call into what its caller does next: wait retry_after, back off and retry,
// give up on this call, or stop everything (401: the token no longer works, which is never the message's
// fault). One place decides, so the sender, the poller, health and the metrics agree.
import { ApiError, ApiTimeoutError, HttpError, NetworkError, isAbortError } from './errors.js';
import { HearsayError } from '../errors/hearsay-error.js';

/**
 * The least a 429 makes anyone wait, whatever its `retry_after` says: `retry_after: 0` retried at once is a busy
 * loop. The real service counts whole seconds, so one second is the least it can mean.
 */
export const MIN_RETRY_AFTER_SECONDS = 1;

/** What went wrong with a Bot API call; each is also a label of hearsay_errors_total. */
export type ApiFailureKind = 'rate_limited' | 'server_error' | 'network' | 'timeout' | 'rejected' | 'unauthorized' | 'conflict' | 'http' | 'unknown';

/** What the caller does about a failed call. */
export type FailureAction = 'wait_retry_after' | 'backoff' | 'drop' | 'aborted' | 'stop';

/** A failed call, sorted: its kind (for metrics) and what to do next. */
export interface ClassifiedFailure {
  kind: ApiFailureKind;
  action: FailureAction;
  /** Seconds to wait, with 429. */
  retryAfter?: number;
}

/** Sorts any error a Bot API call may throw (aborts included) into a kind and the next action. */
export function classifyFailure(error: unknown): ClassifiedFailure {
  if (isAbortError(error)) return { kind: 'unknown', action: 'aborted' };
  if (error instanceof ApiError) {
    const code = error.errorCode;
    if (code === 429) {
      // retry_after 0 (or less) still waits the minimum: retrying at once is the busy loop a 429 asks to avoid.
      const given = error.parameters.retryAfter;
      const retryAfter = given === undefined ? undefined : Math.max(given, MIN_RETRY_AFTER_SECONDS);
      return retryAfter !== undefined ? { kind: 'rate_limited', action: 'wait_retry_after', retryAfter } : { kind: 'rate_limited', action: 'backoff' };
    }
    if (code >= 500) return { kind: 'server_error', action: 'backoff' };
    if (code === 401) return { kind: 'unauthorized', action: 'stop' };
    if (code === 409) return { kind: 'conflict', action: 'drop' };
    return { kind: 'rejected', action: 'drop' };
  }
  if (error instanceof HttpError) {
    return error.status >= 500 || error.status === 429 ? { kind: 'server_error', action: 'backoff' } : { kind: 'http', action: 'drop' };
  }
  if (error instanceof ApiTimeoutError) return { kind: 'timeout', action: 'backoff' };
  if (error instanceof NetworkError) return { kind: 'network', action: 'backoff' };
  return { kind: 'unknown', action: 'drop' };
}

/**
 * A call was refused with 401: the token was revoked or is wrong. The update being handled is left unhandled
 * (kept for the next run), and the service stops taking updates.
 */
export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError';
  constructor(readonly method: string) {
    super(`${method} was refused with 401 Unauthorized`);
  }
}

/** The operator's error for a token refused while running (HS_ERR_TOKEN_REVOKED): where it came from, and what to do. */
export function tokenRevokedError(tokenSource: string = 'BOT_TOKEN'): HearsayError {
  const where = tokenSource === 'BOT_TOKEN_FILE' ? 'the file named by BOT_TOKEN_FILE' : 'BOT_TOKEN (or a file named by BOT_TOKEN_FILE)';
  return new HearsayError('HS_ERR_TOKEN_REVOKED', [where]);
}

/** Whether the service itself looked reachable and working (for /healthz "last API call ok"). */
export function serviceLooksHealthy(error: unknown): boolean {
  const { kind } = classifyFailure(error);
  return kind === 'rejected' || kind === 'rate_limited';
}
