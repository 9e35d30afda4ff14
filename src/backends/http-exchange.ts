// One attempt of a backend request over undici: sent with the path exactly as the engine rendered it (no URL
// parser in between to resolve a `..`), answered within the attempt's timeout (headers and body together), the
// answer read up to a size limit, JSON or text only; a redirect followed on the same origin only. Whatever goes
// wrong becomes a result (a failure), never an exception — except the caller's own abort.
import type { Dispatcher } from 'undici';
import { requestThrough } from '../api/undici-parts.js';
import type { JsonValue } from '../engine/actions.js';
import type { BackendMethod, BackendResult } from '../engine/backend-calls.js';

/** One attempt to make. */
export interface Exchange {
  /** The backend's connection pool (one origin). */
  readonly pool: Dispatcher;
  /** The backend's origin (`https://shop.example.com`), to tell a redirect elsewhere from one to itself. */
  readonly origin: string;
  readonly method: BackendMethod;
  /** The whole path and query (the backend's base path and the call's), sent as it is. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** False: the answer is not needed (a notify), only its status; it is drained unread. */
  readonly readBody: boolean;
  readonly signal: AbortSignal;
}

/** An attempt's result, with what the retry and the log want to know. */
export interface AttemptResult extends BackendResult {
  /** A 429's or 503's Retry-After, in milliseconds. */
  readonly retryAfterMs?: number;
  /** The network error's code (ECONNREFUSED, …), for the log. */
  readonly errorCode?: string;
}

/** Redirects followed at most, on the same origin. */
const MAX_REDIRECTS = 3;
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** Makes the attempt; rejects only when `exchange.signal` aborts. */
export async function exchange(attempt: Exchange): Promise<AttemptResult> {
  const timeout = AbortSignal.timeout(attempt.timeoutMs);
  const signal = AbortSignal.any([attempt.signal, timeout]);
  let path = attempt.path;
  try {
    for (let hop = 0; ; hop++) {
      const response = await requestThrough(attempt.pool, {
        path,
        method: attempt.method,
        headers: attempt.headers,
        body: attempt.body ?? null,
        signal,
        // The whole attempt is bounded by `signal`; undici's own timers would only cut it shorter.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      const next = redirectTarget(response, attempt, path);
      if (next === undefined) return await readAnswer(response, attempt);
      await response.body.dump();
      if (next === null || hop >= MAX_REDIRECTS) return { status: response.statusCode, failure: 'redirect' };
      path = next;
    }
  } catch (error) {
    if (attempt.signal.aborted) throw error;
    if (timeout.aborted) return { status: null, failure: 'timeout' };
    const code = (error as { code?: unknown }).code;
    return { status: null, failure: 'network', ...(typeof code === 'string' ? { errorCode: code } : {}) };
  }
}

/**
 * Where a redirect goes: a path on the same origin to follow (a GET, or a 307/308 that keeps the method and
 * body), null for one that must not be followed (another host, a method a browser would change), undefined when
 * the answer is no redirect to follow.
 */
function redirectTarget(response: Dispatcher.ResponseData, attempt: Exchange, path: string): string | null | undefined {
  const status = response.statusCode;
  const location = header(response.headers, 'location');
  if (!REDIRECTS.has(status) || location === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(location, `${attempt.origin}${path}`);
  } catch {
    return null;
  }
  if (target.origin !== attempt.origin) return null;
  if (attempt.method !== 'GET' && status !== 307 && status !== 308) return null;
  return `${target.pathname}${target.search}`;
}

/** The answer, read up to the size limit and parsed: JSON or text; an unreadable 2xx answer is a failure. */
async function readAnswer(response: Dispatcher.ResponseData, attempt: Exchange): Promise<AttemptResult> {
  const status = response.statusCode;
  const retryAfterMs = status === 429 || status === 503 ? retryAfter(header(response.headers, 'retry-after')) : undefined;
  const base: AttemptResult = retryAfterMs !== undefined ? { status, retryAfterMs } : { status };
  const ok = status >= 200 && status < 300;
  if (!attempt.readBody) {
    await response.body.dump();
    return base;
  }
  const declared = Number(header(response.headers, 'content-length') ?? NaN);
  if (declared > attempt.maxBytes) {
    response.body.destroy();
    return { ...base, failure: 'too_large' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > attempt.maxBytes) {
      response.body.destroy();
      return { ...base, failure: 'too_large' };
    }
    chunks.push(chunk);
  }
  if (size === 0) return base;
  const parsed = parseBody(Buffer.concat(chunks).toString('utf8'), header(response.headers, 'content-type'));
  // A non-2xx answer is judged by its status: an unreadable body there only leaves {{result.…}} empty.
  if ('failure' in parsed) return ok ? { ...base, failure: parsed.failure } : base;
  return { ...base, body: parsed.body };
}

/** A body by its content type: JSON (application/json, +json), text (text/*); without a type, JSON when it parses, else text. */
function parseBody(text: string, type: string | undefined): { body: JsonValue } | { failure: 'bad_json' | 'unsupported_type' } {
  if (type === undefined || type.trim() === '') {
    try {
      return { body: JSON.parse(text) as JsonValue };
    } catch {
      return { body: text };
    }
  }
  if (JSON_TYPE.test(type)) {
    try {
      return { body: JSON.parse(text) as JsonValue };
    } catch {
      return { failure: 'bad_json' };
    }
  }
  if (/^text\//i.test(type)) return { body: text };
  return { failure: 'unsupported_type' };
}

/** Retry-After as milliseconds: seconds, or an HTTP date; undefined when absent or unreadable. */
function retryAfter(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The metric's outcome for an attempt's result. */
export function outcomeOf(result: BackendResult): string {
  if (result.failure !== undefined) return result.failure;
  const status = result.status ?? 0;
  if (status >= 200 && status < 300) return 'ok';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return 'redirect';
}
