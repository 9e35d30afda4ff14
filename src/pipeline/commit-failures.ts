// The failure branches of one update's walk (update-pipeline.ts): a commit that meets a store that is down after
// the replies went out, and a walk that threw — each ends the update in the one way that cannot answer twice.
import { setTimeout as sleep } from 'node:timers/promises';
import { TokenRejectedError } from '../api/failure.js';
import type { Update } from '../api/types.js';
import type { UpdatePipelineOptions } from './pipeline-options.js';
import { StoreUnavailableError, type StateCommit, type UpdateLedger } from './ports.js';

/** Waits between commits while the store is unavailable: soon at first, then at most every second. */
const COMMIT_RETRY_FIRST_MS = 50;
const COMMIT_RETRY_MAX_MS = 1000;

/**
 * The replies are out and the first commit found the store down: that must not make the update run again (it
 * would answer twice), so the commit waits for the store, holding the chat's turn; only a stop cuts it short
 * (the update is then in doubt for the next run).
 */
export async function commitOnceStored(ledger: UpdateLedger, update: Update, state: StateCommit | null, signal: AbortSignal): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await sleep(Math.min(COMMIT_RETRY_MAX_MS, COMMIT_RETRY_FIRST_MS * 2 ** attempt), undefined, { signal });
    try {
      return await ledger.commit(update, state);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
    }
  }
}

/**
 * A walk that threw: a refused token stops everything (`stopForToken`); a stop or a store that is down leaves
 * the update unfinished (rethrown: it is handled again later); anything else is a bug, and drops it for good.
 */
export async function endFailedUpdate(
  options: Pick<UpdatePipelineOptions, 'ledger' | 'logger' | 'metrics'>,
  update: Update,
  error: unknown,
  signal: AbortSignal,
  stopForToken: (error: TokenRejectedError) => void,
): Promise<void> {
  if (error instanceof TokenRejectedError) {
    stopForToken(error);
    throw error;
  }
  // A store that is down is no reason to drop the update: it stays unfinished and is handled again once it is back.
  if (signal.aborted || error instanceof StoreUnavailableError) throw error;
  // A bug must not stall the chat: log it, count it, move on.
  options.logger.error({ err: error, update_id: update.update_id }, 'update handler failed; update dropped');
  options.metrics.error('handler_failed');
  await options.ledger.commit(update, null).catch(() => undefined);
}
