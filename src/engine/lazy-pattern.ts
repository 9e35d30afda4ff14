// A validated pattern and how it runs. A simple, start-anchored shape (see simple-pattern.ts) is matched by a greedy
// walk, with the same result as re2js and in linear time. Any other pattern is compiled once with re2js (so it is
// valid and its groups are known), and its program is built again only when a message first reaches it: a compiled
// re2js program takes ~14 KB, and with the literal prefilter most patterns of a large rule set never run, or run much
// later.
import { RE2JS } from 're2js';
import { simplePattern, type SimplePattern } from './simple-pattern.js';

/** A pattern's captures by number (0 = the whole match) and by name; null for a group that did not take part. */
export type PatternCaptures = Map<number | string, string | null>;

export class LazyPattern {
  #regex: RE2JS | undefined;

  constructor(
    readonly source: string,
    readonly caseSensitive: boolean,
    readonly groupCount: number,
    readonly groupNames: readonly string[],
    /** The same pattern as a greedy walk, when it is in the simple subset. */
    private readonly simple: SimplePattern | undefined = undefined,
  ) {}

  /** Validates `source` (throws like RE2JS.compile on invalid syntax) and keeps only what matching needs later. */
  static validate(source: string, caseSensitive: boolean): LazyPattern {
    const simple = simplePattern(source, caseSensitive);
    if (simple) return new LazyPattern(source, caseSensitive, simple.groupCount, simple.groupNames, simple);
    const regex = RE2JS.compile(source, flagsFor(caseSensitive));
    return new LazyPattern(source, caseSensitive, regex.groupCount(), Object.keys(regex.namedGroups()));
  }

  /** Whether the pattern occurs in `input`. */
  test(input: string): boolean {
    return this.simple ? this.simple.test(input) : this.regex.test(input);
  }

  /** Searches `input` once: the captures of the first match, or undefined when there is none. */
  captures(input: string): PatternCaptures | undefined {
    if (this.simple) return this.simple.captures(input);
    const captures: PatternCaptures = new Map();
    const matcher = this.regex.matcher(input);
    if (!matcher.find()) return undefined;
    for (let g = 0; g <= this.groupCount; g++) captures.set(g, matcher.group(g));
    for (const name of this.groupNames) captures.set(name, matcher.group(name));
    return captures;
  }

  private get regex(): RE2JS {
    return (this.#regex ??= RE2JS.compile(this.source, flagsFor(this.caseSensitive)));
  }
}

function flagsFor(caseSensitive: boolean): number {
  return caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE;
}
