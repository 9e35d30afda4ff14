// A Bot API failure as the service words it; the routes turn it into the error envelope with the same HTTP status.
export class SandboxApiFailure extends Error {
  readonly errorCode: number;
  readonly description: string;
  readonly retryAfter: number | undefined;
  constructor(errorCode: number, description: string, retryAfter?: number) {
    super(description);
    this.errorCode = errorCode;
    this.description = description;
    this.retryAfter = retryAfter;
  }
}

export const badRequest = (detail: string): SandboxApiFailure => new SandboxApiFailure(400, `Bad Request: ${detail}`);
export const unauthorized = (): SandboxApiFailure => new SandboxApiFailure(401, 'Unauthorized');
export const forbidden = (detail: string): SandboxApiFailure => new SandboxApiFailure(403, `Forbidden: ${detail}`);
export const notFound = (): SandboxApiFailure => new SandboxApiFailure(404, 'Not Found');
export const conflict = (detail: string): SandboxApiFailure => new SandboxApiFailure(409, `Conflict: ${detail}`);
export const tooManyRequests = (seconds: number): SandboxApiFailure => new SandboxApiFailure(429, `Too Many Requests: retry after ${seconds}`, seconds);

/** The JSON envelope of a failure; `parameters` only when it carries something, as the real service does. */
export function failureEnvelope(failure: SandboxApiFailure): Record<string, unknown> {
  return {
    ok: false,
    error_code: failure.errorCode,
    description: failure.description,
    ...(failure.retryAfter !== undefined ? { parameters: { retry_after: failure.retryAfter } } : {}),
  };
}
