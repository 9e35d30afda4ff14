// What a poller is built with, from the service's config: one place for the settings the single poller and the
// replicas' leader share, so the two cannot drift apart (only what they hand fetched updates to differs).
import type { BotApi } from '../api/types.js';
import type { ServiceConfig } from '../config/types.js';
import type { PollingIngressOptions } from './polling.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';

/** The parts of the service a poller uses. */
export interface PollerParts {
  config: ServiceConfig;
  api: BotApi;
  logger: Logger;
  metrics: ServiceMetrics;
}

/**
 * A poller's options but its pipeline: `config.polling`'s timeout, batch limit and webhook deletion, where the
 * token came from, and `allowedUpdates` (read before every getupdates; the ingress's `ALLOWED_UPDATES` without it).
 */
export function pollingSettings(
  { config, api, logger, metrics }: PollerParts,
  allowedUpdates?: () => readonly string[],
): Omit<PollingIngressOptions, 'pipeline'> {
  return {
    api,
    logger,
    metrics,
    timeoutSeconds: config.polling.timeoutSeconds,
    limit: config.polling.limit,
    deleteWebhook: config.polling.deleteWebhook,
    tokenSource: config.tokenSource,
    allowedUpdates,
  };
}
