// One request on the wire: undici's dispatch handler for it, which collects the answer and settles the call's
// promise with its result or one typed error — also when its timeout or the caller's signal ends it first.
import type { Dispatcher } from 'undici';
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
 * A call in flight, one per request: undici's handler (the current API, onRequestStart … onResponseError), an
 * entry of the client's deadline queue (or a timer of its own), and what the caller's signal ends. Whatever comes first settles the promise;
 * later events change nothing. The answer's text is scrubbed of the token before any error can carry it.
 */
export class WireCall implements Dispatcher.DispatchHandler, Expiring, CallerAbortable<WireCall> {
  finished = false;
  /** undici's handle on the request; absent while the request waits in the pool for a connection. */
  private controller: Dispatcher.DispatchController | undefined;
  private status = 0;
  /** A 429's `Retry-After`, the fallback when its envelope names no retry_after. */
  private retryAfterHeader: string | string[] | undefined;
  /** Why the call ended before undici had a controller for it (the request then stops as soon as it gets one). */
  private endedWith: Error | undefined;
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

  /**
   * The timeout passed first, unless the answer is already waiting on the socket: after the process was frozen or
   * its loop blocked past the timeout (a long pause of the machine, a heap snapshot), the timers run before the loop
   * reads the sockets. The end waits for that read (setImmediate runs after the loop's poll for I/O), so an answer that
   * came in time is not taken for a timeout, and a message the service did send is not sent again.
   */
  expire(): void {
    setImmediate(timeOutCall, this);
  }

  /** Ends the call with ApiTimeoutError (nothing if its answer came meanwhile). */
  timeOut(): void {
    this.end(new ApiTimeoutError(this.method, this.timeoutMs));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Ended while it waited for a connection: it must not be sent now.
    if (this.endedWith) controller.abort(this.endedWith);
    else this.controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    this.retryAfterHeader = headers['retry-after'];
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
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

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (!this.finished) this.fail(toNetworkError(this.method, error, this.tokenForms));
  }

  /** Settles with `error` and stops the request (at once, or as soon as it gets a connection). */
  private end(error: Error): void {
    if (this.finished) return;
    const controller = this.controller;
    this.fail(error);
    if (controller) controller.abort(error);
    else this.endedWith = error;
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
    this.controller = undefined;
    this.resolve = undefined;
    this.reject = undefined;
    if (this.ownTimer !== undefined) clearTimeout(this.ownTimer);
    if (this.signal) this.signalWatch!.unwatch(this.signal, this);
  }
}

function expireCall(call: WireCall): void {
  call.expire();
}

function timeOutCall(call: WireCall): void {
  call.timeOut();
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

/**
 * Wraps a transport failure without its stack, and with its message only with the token's forms and any /bot…/ path
 * taken out (a message may quote the URL). An error with no system code is named with its message: its name alone
 * (RangeError, TypeError) would not say what failed.
 */
function toNetworkError(method: string, error: unknown, tokenForms: Secrets): NetworkError {
  const source = error as { code?: unknown; name?: unknown; message?: unknown };
  const hasCode = typeof source?.code === 'string';
  const code = hasCode ? (source.code as string) : typeof source?.name === 'string' ? source.name : 'UNKNOWN';
  const text = typeof source?.message === 'string' ? source.message : undefined;
  const message = (text === undefined ? String(code) : tokenForms.scrub(text)).replace(/\/bot[^/\s]*\//g, '/bot<redacted>/');
  const cause = new Error(message);
  cause.name = typeof source?.name === 'string' ? source.name : 'Error';
  cause.stack = `${cause.name}: ${cause.message}`;
  return new NetworkError(method, code, hasCode || !text ? { cause } : { cause, detail: message });
}
