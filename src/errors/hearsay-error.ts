// The one error class behind every registered code: its message is the code's template filled with the
// arguments, and it carries what a caller needs (exit code, log label, setting, extra lines to print).
// Modelled on Fastify's createError(code, message, statusCode); written here because hearsay's errors carry an
// exit code and detail lines rather than an HTTP status.
import { format } from 'node:util';
import { ERRORS, type ErrorCode, type ErrorSpec } from './registry.js';

export interface HearsayErrorOptions {
  /** Extra lines printed before the message (e.g. every rule problem as path:line:column: message). */
  details?: readonly string[];
  cause?: unknown;
}

/** A registered failure: `code` says which, the message is its template filled with `args`. */
export class HearsayError extends Error {
  override name = 'HearsayError';
  readonly code: ErrorCode;
  readonly details: readonly string[];

  constructor(code: ErrorCode, args: ReadonlyArray<string | number>, options: HearsayErrorOptions = {}) {
    super(format(ERRORS[code].message, ...args), options.cause !== undefined ? { cause: options.cause } : undefined);
    this.code = code;
    this.details = options.details ?? [];
  }

  private get spec(): ErrorSpec {
    return ERRORS[this.code];
  }

  /** The exit code a command ends with when this error stops it. */
  get exitCode(): number {
    return this.spec.exitCode;
  }

  /** The short label of log lines (`failure`), e.g. `webhook_active`. */
  get label(): string {
    return this.spec.label;
  }

  /** The setting that decides it, if one does. */
  get setting(): string | undefined {
    return this.spec.setting;
  }

  /** What the operator should do (docs/operations.md lists it too). */
  get action(): string {
    return this.spec.action;
  }
}

/** True for a registered error, optionally of one of `codes`. */
export function isHearsayError(error: unknown, ...codes: ErrorCode[]): error is HearsayError {
  return error instanceof HearsayError && (codes.length === 0 || codes.includes(error.code));
}
