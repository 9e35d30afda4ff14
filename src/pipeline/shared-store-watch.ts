// What a service on a shared (Redis) store does beyond the pipeline: reports outages on /healthz and in
// the metrics, reports a store found without its data (with the accepted updates that went with it), and keeps
// looking for work left in the store — its own updates an outage cut short, and the inbox of replicas that died
// (once their lease ran out) — so nothing accepted waits for a restart.
import type { Logger } from '../log/logger.js';
import type { HealthState } from '../ops/health.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import type { StoreDataLoss } from './replica-ports.js';
import type { UpdatePipeline } from './update-pipeline.js';

/** What the watch needs of the shared store (see the store's SharedStore). */
export interface WatchedStore {
  /** How often to look for work left in the store. */
  readonly takeOverEveryMs: number;
  /** Told when the store becomes unusable (with the kind of outage) and usable again (null); returns an unsubscribe function. */
  onAvailability(listener: (outage: string | null) => void): () => void;
  /** Told each time the store is found to have lost its data; returns an unsubscribe function. */
  onDataLost(listener: (loss: StoreDataLoss) => void): () => void;
}

export interface SharedStoreWatchParts {
  store: WatchedStore;
  pipeline: UpdatePipeline;
  health: HealthState;
  metrics: ServiceMetrics;
  logger: Logger;
}

/** Starts watching; returns the function that stops it (before the drain, so nothing new is started). */
export function watchSharedStore({ store, pipeline, health, metrics, logger }: SharedStoreWatchParts): () => void {
  const unsubscribe = store.onAvailability((outage) => {
    health.storeUnavailable = outage;
    metrics.storeAvailable.set(outage === null ? 1 : 0);
    if (outage !== null) metrics.error('store_unavailable');
    // Back: what the outage held up is handled now rather than at the next round.
    else void takeOver();
  });
  const unwatchLoss = store.onDataLost((loss) => reportDataLoss(loss, pipeline, metrics, logger));
  let running = false;
  const takeOver = async () => {
    if (running || health.storeUnavailable !== null) return;
    running = true;
    try {
      const found = await pipeline.replayPending();
      if (found > 0) logger.debug({ updates: found }, 'updates left in the store are being handled');
    } catch {
      // The store went down meanwhile: its outage is reported once, and the next round tries again.
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void takeOver(), store.takeOverEveryMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    unsubscribe();
    unwatchLoss();
  };
}

/** Ids named in the line; `updates_lost` says how many there were. */
const IDS_SHOWN = 20;

/**
 * One error line and one count per loss found. Of the updates the store held for this replica, those the
 * pipeline still has in hand (queued behind their chat, or sending) are answered all the same; the others were
 * left to the store during the outage and are gone with its data.
 */
function reportDataLoss(loss: StoreDataLoss, pipeline: UpdatePipeline, metrics: ServiceMetrics, logger: Logger): void {
  const gone = loss.heldIds.filter((id) => !pipeline.has(id));
  metrics.storeDataLost.inc();
  logger.error(
    { store: loss.store, updates_lost: gone.length, ...(gone.length > 0 ? { update_ids: gone.slice(0, IDS_SHOWN) } : {}), data_since: loss.since },
    `the store lost its data (restarted without it, flushed, or failed over to a server without it): ${gone.length} update(s) ` +
      'this replica had accepted are gone unanswered; what was handled, the conversation state, the running flows and the effects not yet performed are gone too',
  );
}
