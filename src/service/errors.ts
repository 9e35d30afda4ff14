// Start-up failures that several starters share (the service, the embedded demo): broken rules at start.
import { HearsayError } from '../errors/hearsay-error.js';

/** Broken rules at start: every problem on its own line, and nothing started. */
export function rulesStartupError(rulesPath: string, problems: readonly { format(): string }[]): HearsayError {
  return new HearsayError('HS_ERR_RULES_INVALID', [rulesPath], { details: problems.map((p) => p.format()) });
}
