// One request on the wire: what collects its answer (told by the client's node:http request) and settles the call's
// promise with its result or one typed error — also when its timeout or the caller's signal ends it first.
import type { ClientRequest, IncomingHttpHeaders } from 'node:http';
import type { Secrets } from '../log/secrets.js';
import type { Expiring } from '../timing/deadline-queue.js';
import { ApiError, ApiTimeoutError, HttpError, NetworkError, RequestAbortedError, type ApiErrorParameters } from './errors.js';
import type { CallerAbortable, SignalWatch } from './signal-watch.js';

interface Envelope {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/**
 * A call in flight, one per request: told its answer's status, chunks and end (or a failure), an entry of the
 * client's deadline queue (or a timer of its own), and what the caller's signal ends. Whatever comes first settles
 * the promise; later events change nothing. The answer's text is scrubbed of the token before any error can carry it.
 */
export class WireCall implements Expiring, CallerAbortable<WireCall> {
  finished = false;
  /** The request on the wire (or waiting in the agent for a connection), to end it when the call ends first. */
  private request: ClientRequest | undefined;
  private status = 0;
  /** A 429's `Retry-After`, the fallback when its envelope names no retry_after. */
  private retryAfterHeader: string | string[] | undefined;
  private chunks: Buffer[] = [];
  /** Only for a call whose timeout differs from the client's (a long poll, a caller's own timeoutMs). */
  private ownTimer: NodeJS.Timeout | undefined;
  private signal: AbortSignal | undefined;
  private signalWatch: SignalWatch<WireCall> | undefined;
  /** Links of the signal's list of calls in flight (SignalWatch's). */
  watchPrevious: WireCall | undefined = undefined;
  watchNext: WireCall | undefined = undefined;
  // Dropped once the call is settled, with the controller: whatever still holds the call then holds little.
  private resolve: ((result: unknown) => void) | undefined;
  private reject: ((error: Error) => void) | undefined;

  constructor(
    readonly method: string,
    readonly timeoutMs: number,
    private readonly tokenForms: Secrets,
    resolve: (result: unknown) => void,
    reject: (error: Error) => void,
  ) {
    this.resolve = resolve;
    this.reject = reject;
  }

  /** Starts a timer of the call's own (a timeout other than the client's, which its deadline queue keeps). */
  startOwnTimer(): void {
    this.ownTimer = setTimeout(expireCall, this.timeoutMs, this).unref();
  }

  /** Ends the call with RequestAbortedError when `signal` aborts (`watch` stops watching for it when the call ends). */
  listenTo(signal: AbortSignal, watch: SignalWatch<WireCall>): void {
    this.signal = signal;
    this.signalWatch = watch;
    watch.watch(signal, this);
  }

  /** The caller's signal aborted. */
  abortedByCaller(): void {
    this.end(new RequestAbortedError(this.method));
  }

  /** The timeout passed first. */
  expire(): void {
    this.end(new ApiTimeoutError(this.method, this.timeoutMs));
  }

  /** The request that carries the call. */
  attach(request: ClientRequest): void {
    if (this.finished) request.destroy();
    else this.request = request;
  }

  onResponseStart(statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode;
    this.retryAfterHeader = headers['retry-after'];
  }

  onResponseData(chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.finished) return;
    const chunks = this.chunks;
    const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
    let result: unknown;
    try {
      result = parseAnswer(this.method, this.status, this.retryAfterHeader, this.tokenForms.scrub(text));
    } catch (error) {
      this.fail(error as Error);
      return;
    }
    const resolve = this.resolve!;
    this.settle();
    resolve(result);
  }

  onResponseError(error: Error): void {
    if (!this.finished) this.fail(toNetworkError(this.method, error, this.tokenForms));
  }

  /** Settles with `error` and stops the request (on the wire, or waiting for a connection). */
  private end(error: Error): void {
    if (this.finished) return;
    const request = this.request;
    this.fail(error);
    request?.destroy();
  }

  private fail(error: Error): void {
    const reject = this.reject!;
    this.settle();
    reject(error);
  }

  private settle(): void {
    this.finished = true;
    // The entry may stay in the deadline queue a while: it keeps no answer.
    this.chunks.length = 0;
    this.request = undefined;
    this.resolve = undefined;
    this.reject = undefined;
    if (this.ownTimer !== undefined) clearTimeout(this.ownTimer);
    if (this.signal) this.signalWatch!.unwatch(this.signal, this);
  }
}

function expireCall(call: WireCall): void {
  call.expire();
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
