// Why the service could not start, with the exit code `hearsay run` ends with.
export type StartupFailure = 'rules' | 'unauthorized' | 'unreachable' | 'ingress' | 'state';

export class StartupError extends Error {
  override readonly name = 'StartupError';
  constructor(
    readonly failure: StartupFailure,
    message: string,
    /** Extra lines to print (e.g. every rule problem as path:line:column: message). */
    readonly details: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
