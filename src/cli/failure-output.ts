// How a command reports a registered error that stops it: its detail lines, its message (one line each,
// prefixed with the command), then the code the operations guide explains; the exit code comes with it.
import type { HearsayError } from '../errors/hearsay-error.js';
import { processSecrets } from '../log/secrets.js';

/** Writes `error` to stderr for `hearsay <command>` and returns the exit code to end with. */
export function reportFailure(command: string, error: HearsayError): number {
  const write = (line: string) => process.stderr.write(`${processSecrets.scrub(line)}\n`);
  for (const line of error.details) write(line);
  for (const line of error.message.split('\n')) write(`hearsay ${command}: ${line}`);
  write(`hearsay ${command}: error code ${error.code} (docs/operations.md, Error codes)`);
  return error.exitCode;
}
