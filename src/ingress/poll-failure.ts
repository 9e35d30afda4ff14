// What a failed getupdates means to polling: how long to wait before the next one, or that polling cannot go on
// (a refused token, a webhook that is set, another instance polling with the same token), as a HearsayError.
import { ApiError } from '../api/errors.js';
import { backoffDelay, type BackoffPolicy } from '../api/backoff.js';
import { classifyFailure, tokenRevokedError } from '../api/failure.js';
import { HearsayError } from '../errors/hearsay-error.js';
import type { PollingIngressOptions } from './polling.js';

/** How many getupdates failed in a row (and how many of them were 409 conflicts), and the policy for the waits. */
export interface PollFailures {
  failures: number;
  conflicts: number;
  maxConflicts: number;
  backoff: BackoffPolicy;
}

/**
 * Decides what a failed getupdates means: the wait before the next one in ms, or 'retry_now' (the webhook was just
 * deleted); throws HearsayError when polling cannot go on.
 */
export async function pollFailureWait(
  error: unknown,
  { failures, conflicts, maxConflicts, backoff }: PollFailures,
  options: Pick<PollingIngressOptions, 'api' | 'logger' | 'deleteWebhook' | 'tokenSource'>,
): Promise<number | 'retry_now'> {
  const { api, logger } = options;
  // Counted (by kind) by the client's metrics watcher, like every other call.
  const failure = classifyFailure(error);
  if (error instanceof ApiError && error.errorCode === 401) {
    // At start the token worked (getme): now it was revoked or replaced, e.g. by /token in the assistant.
    throw tokenRevokedError(options.tokenSource);
  }
  if (error instanceof ApiError && error.errorCode === 409 && /webhook/i.test(error.description)) {
    if (!options.deleteWebhook) {
      throw new HearsayError('HS_ERR_WEBHOOK_ACTIVE', []);
    }
    logger.warn('a webhook is set; deleting it as polling.delete_webhook asks (pending updates are kept)');
    try {
      await api.deleteWebhook({ drop_pending_updates: false });
      return 'retry_now';
    } catch (deleteError) {
      logger.warn({ err: deleteError }, 'deletewebhook failed; retrying');
      return backoffDelay(failures, backoff);
    }
  }
  if (error instanceof ApiError && error.errorCode === 409) {
    if (conflicts >= maxConflicts) {
      throw new HearsayError('HS_ERR_OTHER_INSTANCE', []);
    }
    const waitMs = backoffDelay(conflicts, backoff);
    logger.warn({ retry_in_ms: waitMs }, 'another getupdates request is running with this token (409 Conflict); is a second instance running?');
    return waitMs;
  }
  const waitMs = failure.action === 'wait_retry_after' ? failure.retryAfter! * 1000 : backoffDelay(failures, backoff);
  // An outage (the service down or restarting) is expected: told once, in a line, without a stack trace; the
  // retries after it go to debug until getupdates works again. Anything else keeps its error for the report.
  const expected = failure.kind === 'network' || failure.kind === 'timeout' || failure.kind === 'server_error' || failure.kind === 'rate_limited';
  if (!expected) logger.warn({ err: error, retry_in_ms: waitMs }, 'getupdates failed; retrying');
  else if (failures === 1) logger.warn({ reason: (error as Error).message, retry_in_ms: waitMs }, 'getupdates failed; retrying until the service answers');
  else logger.debug({ reason: (error as Error).message, retry_in_ms: waitMs, failures }, 'getupdates failed again; retrying');
  return waitMs;
}
