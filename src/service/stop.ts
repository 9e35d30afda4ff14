// The graceful stop, bounded by delivery.shutdown_timeout plus a fixed margin even with the service gone:
// stop taking updates and claiming effects, drain the pipeline, confirm the offset and close the servers, close the client, then
// write the store. Every step after the drain gets only what is left of the budget.
import type { BotApi } from '../api/types.js';
import type { Logger } from '../log/logger.js';
import type { UpdatePipeline } from '../pipeline/update-pipeline.js';
import type { StartedIngress } from './start-ingress.js';

/** Time a stop may take beyond delivery.shutdown_timeout: the offset confirmation and closing connections. */
const STOP_MARGIN_MS = 2000;
/** After the drain deadline aborts the work in flight, how long it gets to notice. */
const DRAIN_GRACE_MS = 500;
/** Longest wait for the final offset confirmation. */
const OFFSET_CONFIRM_MS = 5000;
/** Least time any step gets, even past the deadline (a healthy service answers in milliseconds). */
const MIN_STEP_MS = 100;

export interface StopParts {
  shutdownTimeoutMs: number;
  logger: Logger;
  pipeline: UpdatePipeline;
  ingress: StartedIngress;
  /** Stops claiming effects (those in hand finish in the drain). */
  outbox: { close(): void };
  rules: { close(): Promise<void> };
  api: BotApi;
  /** Local and synchronous at heart: the state is always written, whatever the service did. */
  closeStore(): Promise<void>;
}

/** Returns the service's stop: graceful, idempotent (every call gets the same promise). */
export function createStop(parts: StopParts): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => (stopping ??= stop(parts));
}

async function stop({ shutdownTimeoutMs, logger, pipeline, ingress, outbox, rules, api, closeStore }: StopParts): Promise<void> {
  const started = performance.now();
  const deadline = started + shutdownTimeoutMs + STOP_MARGIN_MS;
  const left = () => Math.max(MIN_STEP_MS, deadline - performance.now());
  logger.info({ in_flight: pipeline.inFlight }, 'stopping');
  ingress.stopAccepting();
  outbox.close();
  const clean = await pipeline.drain(shutdownTimeoutMs, Math.min(DRAIN_GRACE_MS, left()));
  // Updates whose store was still running at stopAccepting stay stored for the next start.
  pipeline.close();
  const confirmMs = Math.min(OFFSET_CONFIRM_MS, left() - MIN_STEP_MS);
  const steps: Array<[string, () => Promise<void> | undefined]> = [
    ['ingress', () => ingress.close(confirmMs)],
    ['rule watcher', () => rules.close()],
    ['bot api client', () => api.close()],
  ];
  let apiClosed = true;
  for (const [name, step] of steps) {
    if (await settlesWithin(step(), left())) continue;
    logger.warn({ step: name }, 'stop deadline reached; not waiting for this step any longer');
    if (name === 'bot api client') apiClosed = false;
  }
  // Requests still hanging on an unresponsive service would keep the process alive: cut them.
  if (!apiClosed) await settlesWithin(api.destroy?.(), MIN_STEP_MS);
  await closeStore();
  logger.info({ clean, duration_ms: Math.round(performance.now() - started) }, 'stopped');
  logger.flush?.();
}

/** True when `work` settles (either way) within `ms`; false when the wait was given up. */
async function settlesWithin(work: Promise<void> | undefined, ms: number): Promise<boolean> {
  if (!work) return true;
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return settled;
}
