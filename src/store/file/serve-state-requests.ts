// Serves `hearsay state show|forget` and `hearsay broadcast` while the service runs: the command leaves a request in
// the bot's state directory and this instance, the only writer of the journal, answers it through the store.
import { StateRequestServer } from './state-requests.js';
import type { Logger } from '../../log/logger.js';
import { forgetRecipient, handleBroadcast, type BroadcastRequest } from '../../pipeline/broadcasts.js';
import type { OpenedStore } from '../open-store.js';

/** Starts answering requests; `close` before the store closes. `onEffectsStored` is told when a broadcast stored its effects. */
export function serveStateRequests(store: OpenedStore, logger: Logger, onEffectsStored: () => void = () => undefined): { close(): Promise<void> } {
  const broadcasts = { knownUsers: () => store.ledger.knownUsers(), commitState: store.ledger.commitState.bind(store.ledger), campaigns: store.campaigns };
  return new StateRequestServer(
    store.stateDir,
    async (request) => {
      if (request.op === 'show' || request.op === 'forget') {
        if (request.op === 'show') return store.ledger.userRecord(request.userId);
        const record = await forgetRecipient({ forgetUser: (id) => store.ledger.forgetUser(id), campaigns: store.campaigns }, request.userId);
        logger.info({ user_id: request.userId }, "a user's conversation state was forgotten on request (hearsay state forget)");
        return record;
      }
      const answer = await handleBroadcast(broadcasts, request as BroadcastRequest);
      if (answer.op === 'broadcast' && answer.campaign) {
        logger.info({ campaign: answer.campaign.id, recipients: answer.count, to: answer.campaign.audience }, 'broadcast planned (hearsay broadcast)');
        onEffectsStored();
      }
      if (answer.op === 'broadcast-cancel') logger.info({ campaign: answer.campaign.id }, 'broadcast cancelled (hearsay broadcast cancel)');
      return answer;
    },
    (error) => logger.warn({ err: error }, 'state request failed'),
  );
}
