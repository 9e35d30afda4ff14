// Typed configuration errors: each problem names the setting and where its wrong value came from
// (a file position, an environment variable or a flag), so the message says what to fix and where.

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

export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map((p) => p.format()).join('\n'));
  }
}
