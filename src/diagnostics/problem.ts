// The one shape every rule-file problem takes, from YAML syntax to unreachable rules, so the CLI, the
// watcher's log lines and the tests all print `path:line:column: message` the same way.
import { HearsayError } from '../errors/hearsay-error.js';

export type ProblemSeverity = 'error' | 'warning';

export class RuleProblem {
  constructor(
    readonly file: string,
    /** 1-based; 0 when the problem concerns the whole file or directory. */
    readonly line: number,
    /** 1-based; 0 when the problem concerns the whole file or directory. */
    readonly column: number,
    readonly message: string,
    readonly severity: ProblemSeverity = 'error',
  ) {}

  /** `path:line:column: message`, with `warning: ` before the message of a warning. */
  format(displayPath: string = this.file): string {
    const where = this.line > 0 ? `${displayPath}:${this.line}:${this.column}` : displayPath;
    return `${where}: ${this.severity === 'warning' ? 'warning: ' : ''}${this.message}`;
  }
}

/** HS_ERR_RULE_PROBLEMS: rule files cannot be turned into a rule set; carries every problem found, not only the first. */
export class RuleLoadError extends HearsayError {
  override name = 'RuleLoadError';
  readonly problems: readonly RuleProblem[];

  constructor(problems: readonly RuleProblem[]) {
    const errors = problems.filter((p) => p.severity === 'error');
    const shown = errors.slice(0, 5).map((p) => p.format());
    const more = errors.length > shown.length ? `\n(and ${errors.length - shown.length} more)` : '';
    super('HS_ERR_RULE_PROBLEMS', [errors.length, errors.length === 1 ? '' : 's', shown.join('\n'), more]);
    this.problems = problems;
  }
}

/** Where a problem points: a file position. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/** Maps a path inside rule number `ruleIndex` (e.g. ['reply', 1]) to its position in the source. */
export type RuleLocator = (ruleIndex: number, path: readonly (string | number)[]) => SourcePosition;

export function problemAt(position: SourcePosition, message: string, severity: ProblemSeverity = 'error'): RuleProblem {
  return new RuleProblem(position.file, position.line, position.column, message, severity);
}
