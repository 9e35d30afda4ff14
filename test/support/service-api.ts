// A test double (the wire) wrapped exactly as the service wraps its client (retry with the service's
// per-method policies, health, metrics; no rate limits), so unit tests of its callers see real retries and counts.
import type { BotApi } from '../../src/api/types.js';
import type { Logger } from '../../src/log/logger.js';
import { HealthState } from '../../src/ops/health.js';
import type { ServiceMetrics } from '../../src/ops/metrics.js';
import { createServiceBotApi } from '../../src/service/bot-api.js';

export function serviceApi(transport: BotApi, parts: { logger: Logger; metrics: ServiceMetrics; maxAttempts?: number; health?: HealthState }): BotApi {
  const config = {
    baseUrl: 'http://127.0.0.1:9',
    token: 'unused',
    api: { timeoutMs: 1000 },
    rateLimits: null,
    delivery: { maxAttempts: parts.maxAttempts ?? 1 },
  };
  return createServiceBotApi({ config, logger: parts.logger, metrics: parts.metrics, health: parts.health ?? new HealthState('polling'), transport }).api;
}
