// Finds the pattern rules worth running for a message: each pattern with a required literal is filed
// under a short window (key) of that literal; a message looks up its own windows, checks the whole
// literal, and only then runs the regex. Patterns without a known literal are always candidates.
// Candidates come back in rule order, so first-match-wins stays exactly as in a linear scan.
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
  readonly byKey: Map<string, Entry[]>;
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
  let key = literal;
  if (literal.length > KEY_LENGTH) {
    let smallest = Infinity;
    for (let i = 0; i + KEY_LENGTH <= literal.length; i++) {
      const window = literal.slice(i, i + KEY_LENGTH);
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
  if (!table.lengths.includes(key.length)) table.lengths.push(key.length);
}

/** Pattern rules that may match `input` (the pattern input of the message), in rule order, all before `limit`. */
export function patternCandidates(index: PatternIndex, input: string, limit: number): CompiledRule[] {
  // Rule → its literals, for the rules one of whose windows occurs in the message.
  const hits = new Map<CompiledRule, readonly RequiredLiteral[]>();
  let foldedInput = '';
  if (index.folded.byKey.size > 0) {
    foldedInput = foldForPrefilter(input);
    collect(index.folded, foldedInput, limit, hits);
  }
  if (index.exact.byKey.size > 0) collect(index.exact, input, limit, hits);
  const candidates: CompiledRule[] = [];
  // A window hit is only a hint: the whole literal must occur.
  for (const [rule, literals] of hits) {
    if (literals.some((l) => (l.folded ? foldedInput : input).includes(l.text))) candidates.push(rule);
  }
  for (const rule of index.unfiltered) {
    if (rule.order >= limit) break;
    candidates.push(rule);
  }
  return candidates.length > 1 ? candidates.sort((a, b) => a.order - b.order) : candidates;
}

function collect(table: KeyTable, text: string, limit: number, hits: Map<CompiledRule, readonly RequiredLiteral[]>): void {
  for (const length of table.lengths) {
    for (let i = 0; i + length <= text.length; i++) {
      const entries = table.byKey.get(text.slice(i, i + length));
      if (!entries) continue;
      for (const entry of entries) {
        if (entry.rule.order < limit) hits.set(entry.rule, entry.literals);
      }
    }
  }
}
