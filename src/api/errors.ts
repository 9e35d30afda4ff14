// Typed failures of a Bot API call. Messages name the method only: never the URL, whose path holds the token.
// Callers branch on the class (ApiError for the service's own answer, the others for transport trouble).

export interface ApiErrorParameters {
  /** Seconds to wait before retrying (with 429). */
  retryAfter?: number;
  /** The group became a supergroup with this id. */
  migrateToChatId?: number;
}

/** Base of every client error; `method` is the lowercase Bot API method name. */
export class BotApiError extends Error {
  readonly method: string;
  constructor(method: string, message: string, options?: { cause?: unknown }) {
    super(`${method} failed: ${message}`, options);
    this.name = new.target.name;
    this.method = method;
  }
}

/** The service answered with `{"ok": false, ...}`. */
export class ApiError extends BotApiError {
  readonly errorCode: number;
  readonly description: string;
  readonly parameters: ApiErrorParameters;
  constructor(method: string, errorCode: number, description: string, parameters: ApiErrorParameters = {}) {
    super(method, `${errorCode} ${description}`);
    this.errorCode = errorCode;
    this.description = description;
    this.parameters = parameters;
  }
}

/** The service answered with an HTTP status but no Bot API envelope (a proxy page, an empty body...). */
export class HttpError extends BotApiError {
  readonly status: number;
  /** The start of the answer, for diagnosis (never contains the request URL). */
  readonly bodySnippet: string;
  constructor(method: string, status: number, bodySnippet: string) {
    super(method, `HTTP ${status} without a Bot API answer`);
    this.status = status;
    this.bodySnippet = bodySnippet;
  }
}

/** No complete answer within the per-request timeout. */
export class ApiTimeoutError extends BotApiError {
  readonly timeoutMs: number;
  constructor(method: string, timeoutMs: number) {
    super(method, `no answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The connection failed: refused, reset, closed early, DNS... `code` is the system or undici code, or the error's
 * name where it has none; `detail` then says what went wrong (e.g. V8 refusing the HTTP parser's WebAssembly memory
 * under a `ulimit -v`), where a code alone would say nothing.
 */
export class NetworkError extends BotApiError {
  readonly code: string;
  constructor(method: string, code: string, options?: { cause?: unknown; detail?: string }) {
    super(method, options?.detail === undefined ? `network error ${code}` : `network error ${code} (${options.detail})`, options);
    this.code = code;
  }
}

/** The caller aborted the call through its AbortSignal (e.g. ending a long poll on shutdown). */
export class RequestAbortedError extends BotApiError {
  constructor(method: string) {
    super(method, 'request aborted');
  }
}

/** True for an abort the caller asked for, whichever layer reported it. */
export function isAbortError(error: unknown): boolean {
  if (error instanceof RequestAbortedError) return true;
  return error instanceof Error && error.name === 'AbortError';
}

/** `https://host/bot123:ABC/sendMessage?x=1` → `/bot<redacted>/sendMessage`. */
export function redactUrl(url: string): string {
  let path = url;
  try {
    path = new URL(url, 'http://localhost').pathname;
  } catch {
    // Not a URL at all: still redact whatever looks like a token path.
  }
  const match = /\/bot[^/]*(?:\/([^/?#]*))?/.exec(path);
  if (match) return `/bot<redacted>/${match[1] ?? ''}`;
  return path.split('?')[0] ?? '';
}
