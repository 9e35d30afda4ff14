// The operations side of every Bot API call, as transformers (src/api/bot-api.ts composes them): health
// remembers whether the last request reached a working service (/healthz), metrics count each request by
// method and outcome. Both see every attempt, so they run inside the retry transformer.
import { callNext } from '../api/bot-api.js';
import { isAbortError } from '../api/errors.js';
import { classifyFailure, serviceLooksHealthy } from '../api/failure.js';
import type { Transformer } from '../api/types.js';
import type { HealthState } from './health.js';
import type { ServiceMetrics } from './metrics.js';

/**
 * Health: a success, or a refusal of one request (400, 403, 429), proves the service is up; 401, 5xx and transport
 * failures do not. A caller's own abort says nothing either way.
 */
export function healthTransformer(health: HealthState): Transformer {
  // Without an async frame of its own (see callNext): every attempt of every call passes here.
  return (prev, method, params, options) =>
    callNext(prev, method, params, options).then(
      (result) => {
        health.lastApiCallOk = true;
        return result;
      },
      (error: unknown) => {
        if (!isAbortError(error)) health.lastApiCallOk = serviceLooksHealthy(error);
        throw error;
      },
    );
}

/**
 * Metrics: hearsay_api_calls_total{method,outcome} and the request's duration for each request, the failure's kind
 * in hearsay_errors_total, and each sendmessage that succeeded in hearsay_replies_sent_total. Aborts are not counted.
 */
export function metricsTransformer(metrics: ServiceMetrics): Transformer {
  return (prev, method, params, options) => {
    // performance.now() rather than startTimer(): no closure and no hrtime tuple per request; no async frame (see callNext).
    const started = performance.now();
    return callNext(prev, method, params, options).then(
      (result) => {
        metrics.apiCallDuration.observe(method, (performance.now() - started) / 1000);
        metrics.apiCallOk(method);
        if (method === 'sendmessage') metrics.repliesSent.inc();
        return result;
      },
      (error: unknown) => {
        if (!isAbortError(error)) {
          metrics.apiCallDuration.observe(method, (performance.now() - started) / 1000);
          const { kind } = classifyFailure(error);
          metrics.apiCalls.inc({ method, outcome: kind });
          metrics.error(kind);
        }
        throw error;
      },
    );
  };
}
