// The one place the Bot API client is put together: the wire (or a test's double) wrapped in the
// transformers every caller goes through — retry outermost, then the rate limits, health and metrics once
// per attempt. Per-method retry policies live here, so no caller re-writes them.
import { TransformedBotApi } from '../api/bot-api.js';
import { BotApiClient } from '../api/client.js';
import { STARTUP_RETRY_POLICY, retryTransformer } from '../api/retry.js';
import type { BotApi, MethodName, RetryPolicy, Transformer } from '../api/types.js';
import type { ServiceConfig } from '../config/types.js';
import { SENDING_METHODS } from '../api/sending-methods.js';
import { OutgoingRateLimiter, rateLimitTransformer, type RateLimiter } from '../delivery/rate-limiter.js';
import type { Logger } from '../log/logger.js';
import { healthWatcher, metricsWatcher, watchingTransformer } from '../ops/api-transformers.js';
import type { HealthState } from '../ops/health.js';
import type { ServiceMetrics } from '../ops/metrics.js';

export interface ServiceBotApiParts {
  config: Pick<ServiceConfig, 'baseUrl' | 'token' | 'api' | 'rateLimits'> & {
    delivery: Pick<ServiceConfig['delivery'], 'maxAttempts'> & Partial<Pick<ServiceConfig['delivery'], 'concurrency'>>;
  };
  logger: Logger;
  metrics: ServiceMetrics;
  health: HealthState;
  /** The wire; defaults to a BotApiClient for config.baseUrl and config.token. */
  transport?: BotApi;
}

/** The service's client and what can still change in it once the store is open. */
export interface ServiceBotApi {
  /** For every caller. */
  api: BotApi;
  /** The wire itself, to close or destroy. */
  transport: BotApi;
  /** This process's own rate limiter (null when rate limits are off). */
  readonly localLimiter: OutgoingRateLimiter | null;
  /** Sends wait for `limiter` from now on (the limits shared by replicas through the Redis store). */
  shareRateLimits(limiter: RateLimiter): void;
}

export function createServiceBotApi({ config, logger, metrics, health, transport }: ServiceBotApiParts): ServiceBotApi {
  // A connection for every chat handled at once, and one for polling's long poll: a running chat never waits for a
  // connection another chat holds (with 16 for 32 chats, a held webhook request's p50 was 1.1-1.2 ms, with 40 0.75-0.94).
  const connections = config.delivery.concurrency === undefined ? undefined : config.delivery.concurrency + 1;
  const wire =
    transport ??
    new BotApiClient({ baseUrl: config.baseUrl, token: config.token, logger, timeoutMs: config.api.timeoutMs, ...(connections ? { connections } : {}) });
  const transformers: Transformer[] = [retryTransformer({ logger, methods: retryPolicies(config.delivery.maxAttempts) })];
  const localLimiter = config.rateLimits ? new OutgoingRateLimiter(config.rateLimits) : null;
  // The store is opened after the bot is identified (its keys carry the bot's id): the shared limiter comes later.
  let limiter: RateLimiter | null = localLimiter;
  if (localLimiter) transformers.push(rateLimitTransformer({ acquire: (chatId, signal, background) => limiter!.acquire(chatId, signal, background) }));
  transformers.push(watchingTransformer([healthWatcher(health), metricsWatcher(metrics)]));
  return {
    api: new TransformedBotApi(wire, transformers),
    transport: wire,
    localLimiter,
    shareRateLimits: (shared) => {
      if (localLimiter) limiter = shared;
    },
  };
}

/**
 * How each method is retried. Sends (of a text or media): delivery.max_attempts, with no time budget (a reply waits out a long outage
 * rather than being lost). A press's answer, an edit and "typing…": once (an unanswered press only spins a while, a
 * failed edit leaves the old text, a missed "typing…" shows nothing; none should hold up the chat). Start-up calls: a few attempts within seconds, so a
 * wrong BASE_URL still fails fast. getupdates: once — polling runs its own loop around it (409 conflicts, a
 * webhook still set, a poll is never given up).
 */
export function retryPolicies(maxAttempts: number): Partial<Record<MethodName, Partial<RetryPolicy>>> {
  const once: Partial<RetryPolicy> = { maxAttempts: 1 };
  return {
    // Media replies are replies: a photo waits out an outage like a text.
    ...Object.fromEntries(SENDING_METHODS.map((method) => [method, { maxAttempts, budgetMs: Infinity }])),
    editmessagetext: once,
    answercallbackquery: once,
    sendchataction: once,
    getme: STARTUP_RETRY_POLICY,
    setwebhook: STARTUP_RETRY_POLICY,
    deletewebhook: STARTUP_RETRY_POLICY,
    getwebhookinfo: STARTUP_RETRY_POLICY,
    setmycommands: STARTUP_RETRY_POLICY,
    deletemycommands: STARTUP_RETRY_POLICY,
    getupdates: once,
  };
}
