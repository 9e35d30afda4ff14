// A validated pattern and how it runs. A simple, start-anchored shape (see simple-pattern.ts) is matched by a greedy
// walk, with the same result as re2js and in linear time. Any other pattern is compiled once with re2js (so it is
// valid and its groups are known), and its program is built again only when a message first reaches it: a compiled
// re2js program takes ~14 KB, and with the literal prefilter most patterns of a large rule set never run, or run much
// later. A case-insensitive pattern that does not match gets a second chance with the Turkish İ and ı read as i
// (turkish-i.ts), on either side, only where one of them has one.
import { RE2JS } from 're2js';
import { simplePattern, type SimplePattern } from './simple-pattern.js';
import { patternWithPlainI, withPlainI } from './turkish-i.js';

/** A pattern's captures by number (0 = the whole match) and by name; null for a group that did not take part. */
export type PatternCaptures = Map<number | string, string | null>;

export class LazyPattern {
  #regex: RE2JS | undefined;
  #plainIRegex: RE2JS | undefined;
  /** The source with its own İ and ı read as i, for the second chance; undefined when it has none (or with case). */
  private readonly plainISource: string | undefined;

  constructor(
    readonly source: string,
    readonly caseSensitive: boolean,
    readonly groupCount: number,
    readonly groupNames: readonly string[],
    /** The same pattern as a greedy walk, when it is in the simple subset. */
    private readonly simple: SimplePattern | undefined = undefined,
  ) {
    this.plainISource = caseSensitive ? undefined : patternWithPlainI(source);
  }

  /** Validates `source` (throws like RE2JS.compile on invalid syntax) and keeps only what matching needs later. */
  static validate(source: string, caseSensitive: boolean): LazyPattern {
    const simple = simplePattern(source, caseSensitive);
    if (simple) return new LazyPattern(source, caseSensitive, simple.groupCount, simple.groupNames, simple);
    const regex = RE2JS.compile(source, flagsFor(caseSensitive));
    const pattern = new LazyPattern(source, caseSensitive, regex.groupCount(), Object.keys(regex.namedGroups()));
    // The second chance's program must compile too: checked now, not when a message first needs it.
    if (pattern.plainISource !== undefined) RE2JS.compile(pattern.plainISource, flagsFor(caseSensitive));
    return pattern;
  }

  /** Whether the pattern occurs in `input`. */
  test(input: string): boolean {
    if (this.simple) return this.simple.test(input);
    if (this.regex.test(input)) return true;
    const plain = this.secondChance(input);
    return plain !== undefined && this.plainIRegex.test(plain);
  }

  /** Searches `input` once: the captures of the first match, or undefined when there is none. */
  captures(input: string): PatternCaptures | undefined {
    if (this.simple) return this.simple.captures(input);
    const found = this.capturesOf(this.regex.matcher(input), input);
    if (found) return found;
    const plain = this.secondChance(input);
    return plain === undefined ? undefined : this.capturesOf(this.plainIRegex.matcher(plain), input);
  }

  /** The input read with İ and ı as i, when a second chance can match what the first could not. */
  private secondChance(input: string): string | undefined {
    if (this.caseSensitive) return undefined;
    const plain = withPlainI(input);
    return plain ?? (this.plainISource !== undefined ? input : undefined);
  }

  /** The captures of the matcher's first match, taken from `shown` at the same offsets (the text as written). */
  private capturesOf(matcher: ReturnType<RE2JS['matcher']>, shown: string): PatternCaptures | undefined {
    if (!matcher.find()) return undefined;
    const captures: PatternCaptures = new Map();
    for (let g = 0; g <= this.groupCount; g++) captures.set(g, groupIn(matcher, g, shown));
    for (const name of this.groupNames) captures.set(name, groupIn(matcher, name, shown));
    return captures;
  }

  private get regex(): RE2JS {
    return (this.#regex ??= RE2JS.compile(this.source, flagsFor(this.caseSensitive)));
  }

  private get plainIRegex(): RE2JS {
    return (this.#plainIRegex ??= this.plainISource === undefined ? this.regex : RE2JS.compile(this.plainISource, flagsFor(this.caseSensitive)));
  }
}

function groupIn(matcher: ReturnType<RE2JS['matcher']>, group: number | string, shown: string): string | null {
  const start = matcher.start(group);
  return start < 0 ? null : shown.slice(start, matcher.end(group));
}

function flagsFor(caseSensitive: boolean): number {
  return caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE;
}
