// What a service on a shared (Redis) store does beyond the pipeline: reports outages on /healthz and in
// the metrics, and keeps looking for work left in the store — its own updates an outage cut short, and the
// inbox of replicas that died (once their lease ran out) — so nothing accepted waits for a restart.
import type { Logger } from '../log/logger.js';
import type { HealthState } from '../ops/health.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import type { UpdatePipeline } from './update-pipeline.js';

/** What the watch needs of the shared store (see the store's SharedStore). */
export interface WatchedStore {
  /** How often to look for work left in the store. */
  readonly takeOverEveryMs: number;
  /** Told when the store becomes unusable (with the kind of outage) and usable again (null); returns an unsubscribe function. */
  onAvailability(listener: (outage: string | null) => void): () => void;
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
  };
}
