// One of the operator's backends: its connection pool, its headers (secrets included, never logged), its circuit
// breaker and its retries (cockatiel's policies: a consecutive-failures breaker and an exponential back-off), each
// attempt counted in the metrics and timed, and one log line per call that did not end in a 2xx — with the
// path as the rule writes it, never the filled-in path (it may carry what a user typed).
import { BrokenCircuitError, ConsecutiveBreaker, ExponentialBackoff, circuitBreaker, handleWhenResult, retry, wrap, type IPolicy } from 'cockatiel';
import { Pool } from '../api/undici-parts.js';
import type { BackendSettings } from '../config/types.js';
import type { BackendRequest, BackendResult } from '../engine/backend-calls.js';
import { VERSION } from '../generated/version.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { exchange, outcomeOf, type AttemptResult } from './http-exchange.js';

/** Connections kept open to one backend at most. */
const CONNECTIONS = 32;
/** Back-off between attempts of one call: the user is waiting, so it stays short. */
const BACKOFF = { initialDelay: 150, maxDelay: 1000 };
/** Outcomes counted from the start for every backend, so dashboards see the series before the first one. */
const FIRST_OUTCOMES = ['ok', 'client_error', 'server_error', 'timeout', 'network', 'circuit_open'] as const;

/** How a call is made: `retries` overrides the backend's; `readBody` false drains the answer unread (a notify). */
export interface CallOptions {
  readonly signal: AbortSignal;
  readonly retries?: number;
  readonly readBody: boolean;
}

/** A call's result with how many attempts it took. */
export interface CallResult extends AttemptResult {
  readonly attempts: number;
}

export class BackendClient {
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly breaker;
  private readonly withRetries: IPolicy;

  constructor(
    private readonly settings: BackendSettings,
    private readonly metrics: ServiceMetrics,
    private readonly logger: Logger,
  ) {
    const url = new URL(settings.url);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(this.origin, { connections: CONNECTIONS });
    this.breaker = circuitBreaker(
      handleWhenResult((result) => countsAgainst(result as AttemptResult)),
      { halfOpenAfter: settings.circuitBreaker.coolDownMs, breaker: new ConsecutiveBreaker(settings.circuitBreaker.failures) },
    );
    this.breaker.onBreak(() =>
      logger.warn(
        { backend: settings.name, failures: settings.circuitBreaker.failures, cool_down_ms: settings.circuitBreaker.coolDownMs },
        'backend circuit opened: calls fail at once for a while',
      ),
    );
    this.breaker.onReset(() => logger.info({ backend: settings.name }, 'backend circuit closed: it answers again'));
    this.withRetries = wrap(
      retry(
        handleWhenResult((result) => worthRetrying(result as AttemptResult)),
        { maxAttempts: settings.retries, backoff: new ExponentialBackoff(BACKOFF) },
      ),
      this.breaker,
    );
    for (const outcome of FIRST_OUTCOMES) metrics.backendRequests.inc({ backend: settings.name, outcome }, 0);
  }

  /**
   * Makes the request with the backend's headers and, when given, its Idempotency-Key (the same on every attempt);
   * resolves with its result (a failure is a result), rejects only when `options.signal` aborts.
   */
  async call(request: BackendRequest, key: string | null, options: CallOptions): Promise<CallResult> {
    const headers = this.headersFor(request, key);
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const retries = options.retries ?? this.settings.retries;
    const policy = retries > 0 ? this.withRetries : this.breaker;
    let attempts = 0;
    let result: AttemptResult;
    try {
      result = (await policy.execute(({ signal }) => {
        attempts += 1;
        return this.attempt(request, headers, body, options, signal);
      }, options.signal)) as AttemptResult;
    } catch (error) {
      if (!(error instanceof BrokenCircuitError)) throw error;
      this.metrics.backendRequests.inc({ backend: this.settings.name, outcome: 'circuit_open' });
      result = { status: null, failure: 'circuit_open' };
    }
    if (!isSuccess(result)) this.logFailure(request, result, attempts);
    return { ...result, attempts };
  }

  /** Closes the backend's connections (at stop). */
  close(): Promise<void> {
    return this.pool.close();
  }

  private async attempt(request: BackendRequest, headers: Record<string, string>, body: string | undefined, options: CallOptions, signal: AbortSignal) {
    const started = performance.now();
    const result = await exchange({
      pool: this.pool,
      origin: this.origin,
      method: request.method,
      path: `${this.basePath}${request.path}`,
      headers,
      body,
      timeoutMs: this.settings.timeoutMs,
      maxBytes: this.settings.maxResponseBytes,
      readBody: options.readBody,
      signal,
    });
    this.metrics.backendRequestDuration.observe(this.settings.name, (performance.now() - started) / 1000);
    this.metrics.backendRequests.inc({ backend: this.settings.name, outcome: outcomeOf(result) });
    return result;
  }

  /** The operator's headers over the defaults; the Idempotency-Key is hearsay's own. */
  private headersFor(request: BackendRequest, key: string | null): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': `hearsay/${VERSION}`, accept: 'application/json, text/*;q=0.8' };
    for (const [name, value] of Object.entries(this.settings.headers)) headers[name.toLowerCase()] = value;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (key !== null) headers['idempotency-key'] = key;
    return headers;
  }

  private logFailure(request: BackendRequest, result: AttemptResult, attempts: number): void {
    const fields = {
      backend: this.settings.name,
      method: request.method,
      path: request.template,
      outcome: outcomeOf(result),
      status: result.status,
      attempts,
      ...(result.errorCode ? { code: result.errorCode } : {}),
    };
    // A 4xx is the backend's answer (an unknown order); anything else is the backend failing.
    if (result.failure === undefined && result.status !== null && result.status < 500) this.logger.info(fields, 'backend answered with an error status');
    else this.logger.warn(fields, 'backend call failed');
  }
}

function isSuccess(result: BackendResult): boolean {
  return result.failure === undefined && result.status !== null && result.status >= 200 && result.status < 300;
}

/** The backend failing (not answering, 5xx, an unreadable answer): counted by the circuit breaker. A 4xx is an answer. */
function countsAgainst(result: AttemptResult): boolean {
  if (result.failure !== undefined) return result.failure !== 'bad_path' && result.failure !== 'not_declared';
  return result.status !== null && result.status >= 500;
}

/** Worth another attempt: no answer, or a 5xx. */
function worthRetrying(result: AttemptResult): boolean {
  return result.failure === 'timeout' || result.failure === 'network' || (result.failure === undefined && result.status !== null && result.status >= 500);
}
