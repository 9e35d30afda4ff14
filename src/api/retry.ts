// The retry transformer: today's failure policy (src/api/failure.ts) applied to every call, per method.
// 429 waits exactly retry_after (at least the minimum), 5xx / network / timeout back off with jitter,
// 400/403/409 and 401 end the call at once (the caller decides what they mean), an abort ends it as an abort.
// Attempts, the longest 429 wait and a time budget are set per method here, not re-written per caller.
import type { Logger } from '../log/logger.js';
import { DEFAULT_BACKOFF, backoffDelay, sleep } from './backoff.js';
import { callNext } from './bot-api.js';
import { RequestAbortedError } from './errors.js';
import { SENDING_METHODS } from './sending-methods.js';
import { classifyFailure } from './failure.js';
import type { ApiCallFn, CallOptions, MethodName, MethodParams, MethodResult, RetryPolicy, Transformer } from './types.js';

/** A call's policy when nothing else is said: a few attempts within half a minute. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, maxRetryAfterSeconds: 300, budgetMs: 30_000, backoff: DEFAULT_BACKOFF };

/**
 * Calls made while starting (getMe, setWebhook, ...): retried, but within a few seconds, so a wrong BASE_URL or a
 * service that is down still fails fast with its own message.
 */
export const STARTUP_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, maxRetryAfterSeconds: 5, budgetMs: 10_000, backoff: DEFAULT_BACKOFF };

export interface RetryTransformerOptions {
  logger: Logger;
  /** Per-method policies; a method without one gets `defaults`. */
  methods?: Partial<Record<MethodName, Partial<RetryPolicy>>>;
  defaults?: RetryPolicy;
  random?: () => number;
  /** Waits between attempts; injectable so tests can record the waits instead of sleeping. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** What ends a retried call: the final error, and whether retrying ran out (attempts, budget, too long a 429). */
export interface RetryExhausted {
  attempts: number;
  /** Which limit ended it: the attempts, the time budget, or a 429 asking to wait longer than the policy allows. */
  limit: 'attempts' | 'budget' | 'retry_after';
}

const exhausted = new WeakMap<object, RetryExhausted>();

/** Set on the error a retried call ended with when it was still retryable but the policy said stop. */
export function retriesExhausted(error: unknown): RetryExhausted | undefined {
  return typeof error === 'object' && error !== null ? exhausted.get(error) : undefined;
}

/** The retry transformer: one attempt through `prev`, then as the policy of the method (and of this call) says. */
export function retryTransformer(options: RetryTransformerOptions): Transformer {
  const defaults = options.defaults ?? DEFAULT_RETRY_POLICY;
  const random = options.random ?? Math.random;
  const wait = options.sleep ?? sleep;
  const now = options.now ?? Date.now;
  // A method's policy is built once (every reply passes here); only a call with its own `retry` gets a new one.
  const byMethod = new Map<MethodName, RetryPolicy>();
  const policyOf = (method: MethodName, call: CallOptions): RetryPolicy => {
    if (call.retry) return { ...defaults, ...options.methods?.[method], ...call.retry };
    let policy = byMethod.get(method);
    if (!policy) byMethod.set(method, (policy = { ...defaults, ...options.methods?.[method] }));
    return policy;
  };

  // The first attempt runs without an async frame of its own (nearly every call succeeds at once, and every reply
  // passes here); only a failure goes on to the retry loop.
  return (prev, method, params, callOptions) => {
    if (callOptions.signal?.aborted) return Promise.reject(new RequestAbortedError(method));
    const started = now();
    return callNext(prev, method, params, callOptions).catch((error: unknown) => retryAfter(error, { prev, method, params, callOptions, started }));
  };

  /** Attempts 2, 3, …: each failure judged by the policy, then waited out or thrown. */
  async function retryAfter<M extends MethodName>(firstError: unknown, call: RetriedCall<M>): Promise<MethodResult<M>> {
    const { prev, method, params, callOptions, started } = call;
    const policy = policyOf(method, callOptions);
    const { signal } = callOptions;
    // 429 waits are dictated by the service; only 5xx / network failures grow the backoff.
    let backoffStep = 0;
    let error = firstError;
    for (let attempt = 1; ; attempt++) {
      const failure = classifyFailure(error);
      if (failure.action === 'aborted' || signal?.aborted) throw error;
      if (failure.action === 'drop' || failure.action === 'stop') throw error;
      const waitMs = failure.action === 'wait_retry_after' ? failure.retryAfter! * 1000 : backoffDelay(++backoffStep, policy.backoff, random);
      const tooLong = failure.action === 'wait_retry_after' && failure.retryAfter! > policy.maxRetryAfterSeconds;
      const limit = tooLong ? 'retry_after' : attempt >= policy.maxAttempts ? 'attempts' : now() + waitMs - started > policy.budgetMs ? 'budget' : null;
      if (limit) {
        if (typeof error === 'object' && error !== null) exhausted.set(error, { attempts: attempt, limit });
        throw error;
      }
      const reason = error instanceof Error ? error.message : String(error);
      // A sending call that got no answer: the service may have done it and its answer been lost. Said, never
      // silent (the chat may see it twice).
      const mayRepeat = failure.kind === 'timeout' && sendsSomethingNew(method);
      options.logger.warn(
        { ...callOptions.logFields, method, reason, attempt, retry_in_ms: waitMs, ...(mayRepeat ? { may_repeat: true } : {}) },
        mayRepeat ? `${method} got no answer in time and is sent again; if the service did it, the chat gets it twice` : `${method} failed; retrying`,
      );
      try {
        await wait(waitMs, signal);
      } catch {
        throw new RequestAbortedError(method);
      }
      if (signal?.aborted) throw new RequestAbortedError(method);
      try {
        return await prev(method, params, callOptions);
      } catch (next) {
        error = next;
      }
    }
  }
}

const SENDING: ReadonlySet<string> = new Set(SENDING_METHODS);

/**
 * True for a method whose every call adds something the user sees (a message, media, a copy, a forward: the
 * sending methods): done twice, it shows twice. Others repeat harmlessly (a read, a "typing…", an edit to the same
 * text, a ban of someone banned).
 */
export function sendsSomethingNew(method: string): boolean {
  return SENDING.has(method);
}

/** A call the retry transformer goes on with after its first attempt failed. */
interface RetriedCall<M extends MethodName> {
  prev: ApiCallFn;
  method: M;
  params: MethodParams<M>;
  callOptions: CallOptions;
  /** When the first attempt started (the policy's time budget counts from it). */
  started: number;
}
