// Serves `hearsay state show|forget` while the service runs: the command leaves a request in the bot's
// state directory and this instance, the only writer of the journal, answers it through the store.
import { StateRequestServer } from './state-requests.js';
import type { Logger } from '../../log/logger.js';
import type { OpenedStore } from '../open-store.js';

/** Starts answering state requests; `close` before the store closes. */
export function serveStateRequests(store: OpenedStore, logger: Logger): { close(): Promise<void> } {
  return new StateRequestServer(
    store.stateDir,
    async (request) => {
      if (request.op === 'show') return store.ledger.userRecord(request.userId);
      const record = await store.ledger.forgetUser(request.userId);
      logger.info({ user_id: request.userId }, "a user's conversation state was forgotten on request (hearsay state forget)");
      return record;
    },
    (error) => logger.warn({ err: error }, 'state request failed'),
  );
}
