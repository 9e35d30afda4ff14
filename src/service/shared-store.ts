// What a service on a shared (Redis) store does beyond the pipeline: reports outages on /healthz and in
// the metrics, and keeps looking for work left in the store — its own updates an outage cut short, and the
// inbox of replicas that died (once their lease ran out) — so nothing accepted waits for a restart.
import type { Logger } from '../log/logger.js';
import type { HealthState } from '../ops/health.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import type { UpdatePipeline } from '../pipeline/update-pipeline.js';
import type { OpenedRedisStore } from '../store/redis/open-redis-store.js';

export interface SharedStoreParts {
  redis: OpenedRedisStore;
  pipeline: UpdatePipeline;
  health: HealthState;
  metrics: ServiceMetrics;
  logger: Logger;
}

/** Starts watching; returns the function that stops it (before the drain, so nothing new is started). */
export function watchSharedStore({ redis, pipeline, health, metrics, logger }: SharedStoreParts): () => void {
  const unsubscribe = redis.onAvailability((outage) => {
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
  const timer = setInterval(() => void takeOver(), redis.takeOverEveryMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    unsubscribe();
  };
}
