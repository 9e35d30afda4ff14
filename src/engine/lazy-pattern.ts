// A pattern that compiled once (so it is valid and its groups are known) but whose compiled form is
// built again only when a message first reaches it: a compiled re2js program takes ~14 KB, and with the
// literal prefilter most patterns of a large rule set never run, or run much later.
import { RE2JS } from 're2js';

export class LazyPattern {
  #regex: RE2JS | undefined;

  constructor(
    readonly source: string,
    readonly caseSensitive: boolean,
    readonly groupCount: number,
    readonly groupNames: readonly string[],
  ) {}

  /** Compiles `source` (throws like RE2JS.compile on invalid syntax) and keeps only what matching needs later. */
  static validate(source: string, caseSensitive: boolean): LazyPattern {
    const regex = RE2JS.compile(source, flagsFor(caseSensitive));
    return new LazyPattern(source, caseSensitive, regex.groupCount(), Object.keys(regex.namedGroups()));
  }

  get regex(): RE2JS {
    return (this.#regex ??= RE2JS.compile(this.source, flagsFor(this.caseSensitive)));
  }
}

function flagsFor(caseSensitive: boolean): number {
  return caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE;
}
