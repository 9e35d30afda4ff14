// The Bot API client's wire: POST JSON to {baseUrl}/bot<token>/<method> over a keep-alive undici pool, each request a
// WireCall (src/api/wire-call.ts) that turns every outcome into a result or one typed error; ordinary calls share one
// timer for their timeouts (src/timing/deadline-queue.ts), and a caller's signal one listener (src/api/signal-watch.ts).
// The token lives only in the request path. Pool comes from its own module in undici: the package's index would load
// all of undici at start (src/api/undici-parts.ts).
import { Pool } from './undici-parts.js';
import type { Logger } from '../log/logger.js';
import { Secrets } from '../log/secrets.js';
import { BotApiMethods } from './bot-api.js';
import { DeadlineQueue } from '../timing/deadline-queue.js';
import { ApiError, RequestAbortedError } from './errors.js';
import { SignalWatch } from './signal-watch.js';
import type { ApiCallFn, CallOptions, MethodName, MethodParams, MethodResult } from './types.js';
import { hasUpload, multipartBody } from './multipart-body.js';
import { WireCall } from './wire-call.js';

export interface BotApiClientOptions {
  baseUrl: string;
  token: string;
  /** Per-request timeout for ordinary calls. */
  timeoutMs?: number;
  /** Added to a long poll's own timeout, so the service answers before the client gives up. */
  longPollMarginMs?: number;
  logger?: Logger;
  /** Connections kept to the service at most (default 16); requests beyond them wait for one to be free. */
  connections?: number;
}

/** The wire: `call` sends one request and answers with its result or one typed error; no retry (a transformer's job). */
export class BotApiClient extends BotApiMethods {
  private readonly pool: Pool;
  private readonly pathPrefix: string;
  private readonly token: string;
  /** The token in every form it could be echoed in (raw, URL-encoded, its secret half). */
  private readonly tokenForms = new Secrets();
  /** The timeouts of calls with the client's own timeoutMs (nearly all): one timer for all of them. */
  private readonly deadlines: DeadlineQueue<WireCall>;
  /** The callers' signals, one listener each however many calls share one. */
  private readonly signalWatch = new SignalWatch<WireCall>();
  private readonly longPollMarginMs: number;
  private readonly logger: Logger | undefined;
  /** Long polls in flight: close() ends them instead of waiting up to 50 s for their answer. */
  private readonly longPolls = new Set<AbortController>();
  /** Request paths by method (they carry the token: never logged). */
  private readonly paths = new Map<string, string>();

  constructor(options: BotApiClientOptions) {
    super();
    const base = new URL(options.baseUrl);
    this.pool = new Pool(base.origin, { keepAliveTimeout: 30_000, connections: options.connections ?? 16 });
    this.pathPrefix = base.pathname.replace(/\/+$/, '');
    this.token = options.token;
    this.tokenForms.add(options.token);
    this.deadlines = new DeadlineQueue(options.timeoutMs ?? 10_000);
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
    const timeoutMs = options.timeoutMs ?? this.deadlines.timeoutMs;
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

  /** The request path of `method`, built once per method (the methods are the table's few): every reply asks for it. */
  private pathOf(method: string): string {
    let path = this.paths.get(method);
    if (path === undefined) this.paths.set(method, (path = `${this.pathPrefix}/bot${this.token}/${method}`));
    return path;
  }

  private exchange(method: string, params: object | undefined, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    if (signal?.aborted) return Promise.reject(new RequestAbortedError(method));
    let call!: WireCall;
    const answer = new Promise<unknown>((resolve, reject) => (call = new WireCall(method, timeoutMs, this.tokenForms, resolve, reject)));
    // The deadline first: a request that fails at once (a closed pool) finishes during dispatch().
    if (timeoutMs === this.deadlines.timeoutMs) this.deadlines.add(call);
    else call.startOwnTimer();
    if (signal) call.listenTo(signal, this.signalWatch);
    // A call that uploads a file goes as multipart (the media methods); every other as JSON.
    const upload = method !== 'sendmessage' && hasUpload(params) ? multipartBody(params!) : undefined;
    this.pool.dispatch(
      {
        path: this.pathOf(method),
        method: 'POST',
        headers: upload ? { 'content-type': upload.contentType, accept: 'application/json' } : JSON_HEADERS,
        body: upload ? upload.body : JSON.stringify(params ?? {}),
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      call,
    );
    return answer;
  }
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
