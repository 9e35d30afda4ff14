// The Bot API client's wire: POST JSON to {baseUrl}/bot<token>/<method> over a keep-alive undici pool, and turn
// every outcome into a result or one typed error. The token lives only in the request path.
import { EventEmitter } from 'node:events';
import { Pool } from 'undici';
import type { Logger } from '../log/logger.js';
import { Secrets } from '../log/secrets.js';
import { BotApiMethods } from './bot-api.js';
import { ApiError, ApiTimeoutError, HttpError, NetworkError, RequestAbortedError, type ApiErrorParameters } from './errors.js';
import type { ApiCallFn, CallOptions, MethodName, MethodParams, MethodResult } from './types.js';

export interface BotApiClientOptions {
  baseUrl: string;
  token: string;
  /** Per-request timeout for ordinary calls. */
  timeoutMs?: number;
  /** Added to a long poll's own timeout, so the service answers before the client gives up. */
  longPollMarginMs?: number;
  logger?: Logger;
}

interface Envelope {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** The wire: `call` sends one request and answers with its result or one typed error; no retry (a transformer's job). */
export class BotApiClient extends BotApiMethods {
  private readonly pool: Pool;
  private readonly pathPrefix: string;
  private readonly token: string;
  /** The token in every form it could be echoed in (raw, URL-encoded, its secret half). */
  private readonly tokenForms = new Secrets();
  private readonly timeoutMs: number;
  private readonly longPollMarginMs: number;
  private readonly logger: Logger | undefined;
  /** Long polls in flight: close() ends them instead of waiting up to 50 s for their answer. */
  private readonly longPolls = new Set<AbortController>();

  constructor(options: BotApiClientOptions) {
    super();
    const base = new URL(options.baseUrl);
    this.pool = new Pool(base.origin, { keepAliveTimeout: 30_000, connections: 16 });
    this.pathPrefix = base.pathname.replace(/\/+$/, '');
    this.token = options.token;
    this.tokenForms.add(options.token);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.longPollMarginMs = options.longPollMarginMs ?? 5_000;
    this.logger = options.logger;
  }

  /** Ends long polls in flight (they reject with RequestAbortedError), lets other calls finish, closes the pool. */
  async close(): Promise<void> {
    for (const poll of this.longPolls) poll.abort();
    await this.pool.close();
  }

  /** Ends every request in flight now and closes the pool (a stop that ran out of time). */
  async destroy(): Promise<void> {
    for (const poll of this.longPolls) poll.abort();
    await this.pool.destroy();
  }

  /** One request: any method of the table. A getupdates long poll gets its own timeout and ends on close(). */
  readonly call: ApiCallFn = <M extends MethodName>(method: M, params: MethodParams<M>, options: CallOptions = {}): Promise<MethodResult<M>> =>
    method === 'getupdates' ? this.longPoll(method, params as MethodParams<'getupdates'>, options) : this.request(method, params, options);

  private async longPoll<M extends MethodName>(method: M, params: MethodParams<'getupdates'>, options: CallOptions): Promise<MethodResult<M>> {
    const pollMs = Math.max(0, params.timeout ?? 0) * 1000;
    const ending = new AbortController();
    this.longPolls.add(ending);
    const signal = options.signal ? AbortSignal.any([options.signal, ending.signal]) : ending.signal;
    try {
      return await this.request(method, params, { signal, timeoutMs: options.timeoutMs ?? pollMs + this.longPollMarginMs });
    } finally {
      this.longPolls.delete(ending);
    }
  }

  private request<T>(method: string, params: object | undefined, options: CallOptions): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    // Below debug (a running service) the call is neither timed nor logged, and costs no async frame: this runs for every reply.
    if (!this.logger?.isLevelEnabled('debug')) return this.exchange(method, params, timeoutMs, options.signal) as Promise<T>;
    return this.loggedRequest(method, params, timeoutMs, options);
  }

  private async loggedRequest<T>(method: string, params: object | undefined, timeoutMs: number, options: CallOptions): Promise<T> {
    const started = performance.now();
    try {
      const result = (await this.exchange(method, params, timeoutMs, options.signal)) as T;
      this.logger?.debug({ method, durationMs: Math.round(performance.now() - started), ok: true }, 'bot api call');
      return result;
    } catch (error) {
      const outcome = error instanceof ApiError ? error.errorCode : (error as Error).name;
      this.logger?.debug({ method, durationMs: Math.round(performance.now() - started), ok: false, error: outcome }, 'bot api call failed');
      throw error;
    }
  }

  private async exchange(method: string, params: object | undefined, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    if (signal?.aborted) throw new RequestAbortedError(method);
    // The request's own cancel switch: undici takes an emitter of 'abort' as its signal, which costs a fraction of
    // an AbortController (one per call was a measurable share of each update's CPU).
    const cancel = new EventEmitter();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      cancel.emit('abort');
    }, timeoutMs);
    const onAbort = (): void => void cancel.emit('abort');
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.pool.request({
        path: `${this.pathPrefix}/bot${this.token}/${method}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(params ?? {}),
        signal: cancel,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      const text = await response.body.text();
      return parseAnswer(method, response.statusCode, response.headers['retry-after'], this.tokenForms.scrub(text));
    } catch (error) {
      if (error instanceof ApiError || error instanceof HttpError) throw error;
      if (timedOut) throw new ApiTimeoutError(method, timeoutMs);
      if (signal?.aborted) throw new RequestAbortedError(method);
      throw toNetworkError(method, error, this.tokenForms);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function parseAnswer(method: string, status: number, retryAfterHeader: string | string[] | undefined, text: string): unknown {
  let envelope: Envelope | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as Envelope).ok === 'boolean') envelope = parsed as Envelope;
  } catch {
    envelope = undefined;
  }
  if (!envelope) throw new HttpError(method, status, text.slice(0, 200));
  if (envelope.ok) return envelope.result;
  const parameters: ApiErrorParameters = {};
  const retryAfter = envelope.parameters?.retry_after ?? headerSeconds(retryAfterHeader);
  if (retryAfter !== undefined) parameters.retryAfter = retryAfter;
  if (envelope.parameters?.migrate_to_chat_id !== undefined) parameters.migrateToChatId = envelope.parameters.migrate_to_chat_id;
  throw new ApiError(method, envelope.error_code ?? status, envelope.description ?? `HTTP ${status}`, parameters);
}

function headerSeconds(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** Wraps a transport failure without its message or stack, which may quote the URL and so the token. */
function toNetworkError(method: string, error: unknown, tokenForms: Secrets): NetworkError {
  const source = error as { code?: unknown; name?: unknown; message?: unknown };
  const code = typeof source?.code === 'string' ? source.code : typeof source?.name === 'string' ? source.name : 'UNKNOWN';
  const message = typeof source?.message === 'string' ? tokenForms.scrub(source.message) : String(code);
  const cause = new Error(message.replace(/\/bot[^/\s]*\//g, '/bot<redacted>/'));
  cause.name = typeof source?.name === 'string' ? source.name : 'Error';
  cause.stack = `${cause.name}: ${cause.message}`;
  return new NetworkError(method, code, { cause });
}
