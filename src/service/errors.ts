// Why the service could not start, with the exit code `hearsay run` ends with.
export type StartupFailure = 'rules' | 'unauthorized' | 'unreachable' | 'ingress' | 'state' | 'locked';

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

/** Broken rules at start: every problem on its own line, and nothing started. */
export function rulesStartupError(rulesPath: string, problems: readonly { format(): string }[]): StartupError {
  return new StartupError(
    'rules',
    `the rules in ${rulesPath} have problems; nothing was started`,
    problems.map((p) => p.format()),
  );
}
