// The operator's backends of one service, by name: what the update pipeline calls while an update is handled
// (the BackendCaller port, with an Idempotency-Key from the update and the call's position) and what performs the
// outbox's `backend` effects (a notify: one attempt each, its key from the effect's id, the same on every attempt).
import type { BackendSettings } from '../config/types.js';
import type { BackendRequest, BackendResult } from '../engine/backend-calls.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import type { BackendCaller, CallCause } from '../pipeline/backend-port.js';
import type { EffectAttempt, EffectPerformer } from '../pipeline/outbox.js';
import type { BackendClient, CallResult } from './backend-client.js';
import { outcomeOf } from './http-exchange.js';

export interface BackendsOptions {
  readonly settings: Readonly<Record<string, BackendSettings>>;
  /** The key of one call of one update (see store/effect-ids.ts): the same on every run of that update. */
  readonly callKey: (cause: CallCause) => string;
  /** The key of a notify: from its effect's id. */
  readonly effectKey: (effectId: string) => string;
  readonly metrics: ServiceMetrics;
  readonly logger: Logger;
}

export class Backends implements BackendCaller {
  /**
   * The backends of `options.settings`, each with its connection pool. Their HTTP client (undici's full API) and
   * policies (cockatiel) are loaded only for a bot that declares a backend: a bot without one keeps some MB of
   * memory (BENCHMARKS.md, "Issue 38, ninth pass").
   */
  static async open(options: BackendsOptions): Promise<Backends> {
    const clients = new Map<string, BackendClient>();
    const declared = Object.entries(options.settings);
    if (declared.length > 0) {
      const { BackendClient } = await import('./backend-client.js');
      for (const [name, settings] of declared) clients.set(name, new BackendClient(settings, options.metrics, options.logger));
    }
    return new Backends(options, clients);
  }

  private constructor(
    private readonly options: BackendsOptions,
    private readonly clients: ReadonlyMap<string, BackendClient>,
  ) {}

  /** A call the reply waits for: a GET without a key, any other method with the update's. */
  async call(request: BackendRequest, cause: CallCause, signal: AbortSignal): Promise<BackendResult> {
    const { status, body, failure } = await this.send(request, request.method === 'GET' ? null : this.options.callKey(cause), signal, true);
    const result: { -readonly [K in keyof BackendResult]: BackendResult[K] } = { status };
    if (body !== undefined) result.body = body;
    if (failure !== undefined) result.failure = failure;
    return result;
  }

  /** The performer of `backend` effects (notify): done on a 2xx; retried on no answer, a 5xx, a 429 or an open circuit; given up on any other answer. */
  notifyPerformer(): EffectPerformer {
    return async (effect, signal): Promise<EffectAttempt> => {
      const request = effect.payload as unknown as BackendRequest;
      // One attempt each: the outbox retries with its back-off, for as long as the backend's give_up_after allows.
      const result = await this.send(request, this.options.effectKey(effect.id), signal, false, 0);
      return effectAttempt(result);
    };
  }

  /** Closes every backend's connections. */
  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.close()));
  }

  private async send(request: BackendRequest, key: string | null, signal: AbortSignal, readBody: boolean, retries?: number): Promise<CallResult> {
    const client = this.clients.get(request.backend);
    if (!client) {
      this.options.logger.warn(
        { backend: request.backend, method: request.method, path: request.template },
        'backend call refused: the configuration declares no such backend',
      );
      return { status: null, failure: 'not_declared', attempts: 0 };
    }
    if (leavesPath(request.path)) {
      this.options.logger.warn(
        { backend: request.backend, method: request.method, path: request.template },
        'backend call refused: a value would make a path segment . or ..',
      );
      return { status: null, failure: 'bad_path', attempts: 0 };
    }
    return client.call(request, key, { signal, readBody, ...(retries !== undefined ? { retries } : {}) });
  }
}

/** Whether a segment of the path is `.` or `..` once decoded: a server or proxy could resolve it out of the path. */
function leavesPath(path: string): boolean {
  const end = path.indexOf('?');
  for (const segment of (end < 0 ? path : path.slice(0, end)).split('/')) {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // Not valid percent-encoding: compared as it is.
    }
    if (decoded === '.' || decoded === '..') return true;
  }
  return false;
}

/** How a notify's attempt went, for the outbox. */
function effectAttempt(result: CallResult): EffectAttempt {
  const outcome = outcomeOf(result);
  if (outcome === 'ok') return { outcome: 'done' };
  const reason = result.status !== null ? `${outcome} (${result.status})` : outcome;
  if (
    result.status === 429 ||
    result.status === 408 ||
    outcome === 'server_error' ||
    outcome === 'timeout' ||
    outcome === 'network' ||
    outcome === 'circuit_open'
  )
    return { outcome: 'retry', reason, ...(result.retryAfterMs !== undefined ? { retryAfterMs: result.retryAfterMs } : {}) };
  return { outcome: 'failed', reason };
}
