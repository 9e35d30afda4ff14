// The operations side of every Bot API call, as one transformer (src/api/bot-api.ts composes it): health
// remembers whether the last request reached a working service (/healthz), metrics count each request by
// method and outcome. Both see every attempt, so they run inside the retry transformer; both only watch, so they
// share one promise reaction per request rather than stacking one each.
import { callNext } from '../api/bot-api.js';
import { isAbortError } from '../api/errors.js';
import { classifyFailure, serviceLooksHealthy } from '../api/failure.js';
import type { Transformer } from '../api/types.js';
import type { HealthState } from './health.js';
import type { ServiceMetrics } from './metrics.js';

/** What watches a request's outcome without changing it; `started` is when the request was made (performance.now()). */
export interface CallWatcher {
  succeeded(method: string, started: number): void;
  /** Not told about a caller's own abort. */
  failed(method: string, started: number, error: unknown): void;
}

/** One transformer telling every watcher of each request's outcome, in order; the outcome itself passes on unchanged. */
export function watchingTransformer(watchers: readonly CallWatcher[]): Transformer {
  // Without an async frame of its own (see callNext): every attempt of every call passes here.
  return (prev, method, params, options) => {
    // performance.now() rather than startTimer(): no closure and no hrtime tuple per request.
    const started = performance.now();
    return callNext(prev, method, params, options).then(
      (result) => {
        for (const watcher of watchers) watcher.succeeded(method, started);
        return result;
      },
      (error: unknown) => {
        if (!isAbortError(error)) for (const watcher of watchers) watcher.failed(method, started, error);
        throw error;
      },
    );
  };
}

/**
 * Health: a success, or a refusal of one request (400, 403, 429), proves the service is up; 401, 5xx and transport
 * failures do not. A caller's own abort says nothing either way.
 */
export function healthWatcher(health: HealthState): CallWatcher {
  return {
    succeeded: () => {
      health.lastApiCallOk = true;
    },
    failed: (_method, _started, error) => {
      health.lastApiCallOk = serviceLooksHealthy(error);
    },
  };
}

/**
 * Metrics: hearsay_api_calls_total{method,outcome} and the request's duration for each request, the failure's kind
 * in hearsay_errors_total, and each sendmessage that succeeded in hearsay_replies_sent_total. Aborts are not counted.
 */
export function metricsWatcher(metrics: ServiceMetrics): CallWatcher {
  return {
    succeeded: (method, started) => {
      metrics.apiCallDuration.observe(method, (performance.now() - started) / 1000);
      metrics.apiCallOk(method);
      if (method === 'sendmessage') metrics.repliesSent.inc();
    },
    failed: (method, started, error) => {
      metrics.apiCallDuration.observe(method, (performance.now() - started) / 1000);
      const { kind } = classifyFailure(error);
      metrics.apiCalls.inc({ method, outcome: kind });
      metrics.error(kind);
    },
  };
}
