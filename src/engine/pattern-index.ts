// Finds the pattern rules worth running for a message: each pattern with a required literal is filed
// under a short window (key) of that literal; a message looks up its own windows, checks the whole
// literal, and only then runs the regex. Patterns without a known literal are always candidates.
// Candidates come back in rule order, so first-match-wins stays exactly as in a linear scan.
// A window's key is a number computed from its UTF-16 code units, not the substring: a message's windows
// are looked up without building a string each (at 10,000 rules that was most of the prefilter's cost).
// Two windows may share a number; that only makes a rule a candidate whose whole literal is then checked.
import { foldForPrefilter } from './pattern-fold.js';
import { requiredLiterals, type RequiredLiteral } from './pattern-literals.js';
import type { CompiledRule } from './rule-set.js';

/** Window length used as an index key (shorter literals are filed whole). */
const KEY_LENGTH = 4;

interface Entry {
  readonly rule: CompiledRule;
  /** Any one of these in the message lets the regex run (the rule's whole requirement). */
  readonly literals: readonly RequiredLiteral[];
}

interface KeyTable {
  /** Entries by the key of a window of their literal (see windowKey). */
  readonly byKey: Map<number, Entry[]>;
  /** The key lengths in use, so a message only looks up windows that can exist. */
  readonly lengths: number[];
}

export interface PatternIndex {
  /** Every pattern rule, in order (for the reference scan and reports). */
  readonly all: readonly CompiledRule[];
  /** Pattern rules with no usable literal: always candidates. */
  readonly unfiltered: readonly CompiledRule[];
  readonly exact: KeyTable;
  readonly folded: KeyTable;
}

/** Builds the index; `rules` are the pattern rules in order. */
export function buildPatternIndex(rules: readonly CompiledRule[]): PatternIndex {
  const unfiltered: CompiledRule[] = [];
  const exact: KeyTable = { byKey: new Map(), lengths: [] };
  const folded: KeyTable = { byKey: new Map(), lengths: [] };
  for (const rule of rules) {
    if (rule.trigger.kind !== 'pattern') continue;
    const literals = requiredLiterals(rule.trigger.source, !rule.caseSensitive);
    if (!literals || literals.length === 0 || literals.some((l) => l.text === '')) {
      unfiltered.push(rule);
      continue;
    }
    const entry: Entry = { rule, literals };
    for (const literal of literals) file(literal.folded ? folded : exact, literal.text, entry);
  }
  return { all: rules, unfiltered, exact, folded };
}

/** Files the entry under the window of `literal` whose bucket is smallest so far, spreading look-alike literals. */
function file(table: KeyTable, literal: string, entry: Entry): void {
  const length = Math.min(literal.length, KEY_LENGTH);
  let key = windowKey(literal, 0, length);
  if (literal.length > KEY_LENGTH) {
    let smallest = Infinity;
    for (let i = 0; i + KEY_LENGTH <= literal.length; i++) {
      const window = windowKey(literal, i, KEY_LENGTH);
      const size = table.byKey.get(window)?.length ?? 0;
      if (size < smallest) {
        smallest = size;
        key = window;
        if (size === 0) break;
      }
    }
  }
  const list = table.byKey.get(key);
  if (list) {
    // One rule may be filed twice under one key (two alternatives sharing a window): once is enough.
    if (list[list.length - 1] !== entry) list.push(entry);
  } else {
    table.byKey.set(key, [entry]);
  }
  if (!table.lengths.includes(length)) table.lengths.push(length);
}

/**
 * The key of `text`'s window of `length` code units at `start`: a small integer (a Map key V8 hashes for
 * free), the same for the same window, and rarely the same for different ones (see the module comment).
 */
function windowKey(text: string, start: number, length: number): number {
  let key = length;
  for (let i = start; i < start + length; i++) key = (Math.imul(key, 31) + text.charCodeAt(i)) & 0x3fffffff;
  return key;
}

/** Pattern rules that may match `input` (the pattern input of the message), in rule order, all before `limit`. */
export function patternCandidates(index: PatternIndex, input: string, limit: number): readonly CompiledRule[] {
  if (index.all.length === 0) return NONE;
  const foldedInput = index.folded.byKey.size > 0 ? foldForPrefilter(input) : '';
  const candidates: CompiledRule[] = [];
  // Rules one of whose windows occurs in the message, each once; a window hit is only a hint: the whole literal must occur.
  let hits: Set<CompiledRule> | undefined;
  const consider = (entry: Entry): void => {
    if (entry.rule.order >= limit || hits?.has(entry.rule)) return;
    (hits ??= new Set()).add(entry.rule);
    if (entry.literals.some((l) => (l.folded ? foldedInput : input).includes(l.text))) candidates.push(entry.rule);
  };
  if (index.folded.byKey.size > 0) collect(index.folded, foldedInput, consider);
  if (index.exact.byKey.size > 0) collect(index.exact, input, consider);
  for (const rule of index.unfiltered) {
    if (rule.order >= limit) break;
    candidates.push(rule);
  }
  return candidates.length > 1 ? candidates.sort((a, b) => a.order - b.order) : candidates;
}

const NONE: readonly CompiledRule[] = Object.freeze([]);

/** Every entry filed under a window of `text`, for each key length in use. */
function collect(table: KeyTable, text: string, consider: (entry: Entry) => void): void {
  for (const length of table.lengths) {
    for (let i = 0; i + length <= text.length; i++) {
      const entries = table.byKey.get(windowKey(text, i, length));
      if (entries) for (const entry of entries) consider(entry);
    }
  }
}
