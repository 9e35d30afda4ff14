// Typed configuration errors: each problem names the setting and where its wrong value came from
// (a file position, an environment variable or a flag), so the message says what to fix and where.
import { HearsayError } from '../errors/hearsay-error.js';

export type ConfigSource =
  { kind: 'file'; file: string; line: number; column: number } | { kind: 'env'; name: string } | { kind: 'flag'; name: string } | { kind: 'default' };

export class ConfigProblem {
  constructor(
    readonly setting: string | null,
    readonly source: ConfigSource,
    readonly message: string,
  ) {}

  format(): string {
    switch (this.source.kind) {
      case 'file':
        return `${this.source.file}:${this.source.line}:${this.source.column}: ${this.message}`;
      case 'env':
        return `environment variable ${this.source.name}: ${this.message}`;
      case 'flag':
        return `option ${this.source.name}: ${this.message}`;
      default:
        return this.message;
    }
  }
}

/** HS_ERR_CONFIG_INVALID: every wrong setting at once, each a ConfigProblem; exit code 2. */
export class ConfigError extends HearsayError {
  override name = 'ConfigError';

  constructor(readonly problems: ConfigProblem[]) {
    super('HS_ERR_CONFIG_INVALID', [problems.map((p) => p.format()).join('\n')]);
  }
}
