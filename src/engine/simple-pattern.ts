// Recognises the simple, start-anchored pattern shapes (e.g. `^order\s+(\d+)$`) that can match in only one way, and
// matches them with a plain greedy walk: no regex program at all. A re2js program costs ~140 µs to compile and ~14 KB
// to keep (and a JavaScript RegExp still compiles twice, to bytecode and to machine code, the first times it runs);
// a simple pattern here is an array of shared atoms. Anything outside the subset (or in doubt) stays on re2js.
// test/engine/simple-pattern.test.ts checks the subset against re2js.
//
// Why one way: the pattern is anchored with `^` (one start position), has no alternation, no `.`, no repeated group,
// and every variable repetition is last or followed by a required atom that shares no character with it. Stopping
// such a repetition early leaves one of its own characters where the next atom must match, so only its longest run
// can lead to a match: the greedy walk finds the match re2js finds (leftmost-first), with the same groups, in time
// linear in the message.
// Why the same characters: only ASCII atoms whose meaning is RE2's (`\s` is `[\t\n\f\r ]`, `\w` and `\d` ASCII);
// case-insensitive atoms hold both cases of their letters, plus the only non-ASCII partners of ASCII letters in
// Unicode simple case folding, which re2js also uses: the Kelvin sign (k) and the long s (s). And as LazyPattern
// does for re2js (turkish-i.ts), a case-insensitive walk that fails on a message with the Turkish İ or ı walks
// again reading them as i.

import { RE2_ESCAPED_PUNCTUATION } from './pattern-literals.js';
import { hasTurkishI, isTurkishI } from './turkish-i.js';

/** One atom with its repetition; `set` is a 128-bit map of the ASCII characters it matches (case-folded when it applies). */
interface Atom {
  readonly set: Uint32Array;
  readonly min: number;
  readonly max: number;
}

/** A pattern in the simple subset, ready to match. */
export class SimplePattern {
  constructor(
    private readonly atoms: readonly Atom[],
    /** Per group (1…n): the index of its first atom and of the atom after its last, flat. */
    private readonly spans: readonly number[],
    readonly groupNames: readonly string[],
    /** Each named group's number, in the order of `groupNames`. */
    private readonly namedGroups: readonly number[],
    private readonly anchoredEnd: boolean,
    /** Case-insensitive: the Kelvin sign and the long s match where k and s do (and, on a second walk, İ and ı where i does). */
    private readonly unicodeFold: boolean,
  ) {}

  get groupCount(): number {
    return this.spans.length / 2;
  }

  /** The captures of the match in `input` (0 = the whole match), or undefined when it does not match. */
  captures(input: string): Map<number | string, string | null> | undefined {
    const ends = this.walk(input, false) ?? this.walkPlainI(input);
    if (!ends) return undefined;
    const captures = new Map<number | string, string | null>();
    captures.set(0, input.slice(0, ends[this.atoms.length]));
    for (let g = 1; g <= this.groupCount; g++) captures.set(g, input.slice(ends[this.spans[2 * g - 2]!], ends[this.spans[2 * g - 1]!]));
    this.groupNames.forEach((name, i) => captures.set(name, captures.get(this.namedGroups[i]!)!));
    return captures;
  }

  test(input: string): boolean {
    return (this.walk(input, false) ?? this.walkPlainI(input)) !== undefined;
  }

  /** The second walk, with İ and ı as i: only for a case-insensitive pattern and a message that has one. */
  private walkPlainI(input: string): Int32Array | undefined {
    return this.unicodeFold && hasTurkishI(input) ? this.walk(input, true) : undefined;
  }

  /** Where each atom starts (and, last, where the match ends); undefined when there is no match. Reuses one buffer. */
  private walk(input: string, plainI: boolean): Int32Array | undefined {
    const atoms = this.atoms;
    if (starts.length <= atoms.length) starts = new Int32Array(atoms.length + 16);
    let at = 0;
    for (let i = 0; i < atoms.length; i++) {
      starts[i] = at;
      const atom = atoms[i]!;
      let n = 0;
      while (n < atom.max && at < input.length && this.has(atom.set, input.charCodeAt(at), plainI)) {
        at += 1;
        n += 1;
      }
      if (n < atom.min) return undefined;
    }
    starts[atoms.length] = at;
    return this.anchoredEnd && at !== input.length ? undefined : starts;
  }

  private has(set: Uint32Array, code: number, plainI: boolean): boolean {
    if (code < 128) return ((set[code >> 5]! >>> (code & 31)) & 1) === 1;
    if (!this.unicodeFold) return false;
    return (
      (code === KELVIN && this.has(set, 107, false)) ||
      (code === LONG_S && this.has(set, 115, false)) ||
      (plainI && isTurkishI(code) && this.has(set, 105, false))
    );
  }
}

const KELVIN = 0x212a;
const LONG_S = 0x17f;
let starts = new Int32Array(64);
const NONE: readonly string[] = [];

/** RE2's maximum repeat count; larger counts are left to re2js, which reports them. */
const MAX_REPEAT = 1000;
const META = new Set('\\.+*?()|[]{}^$');
const RE2_SPACE = '\t\n\f\r ';
const DIGITS = '0123456789';
const WORD = `${DIGITS}ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_`;

/** Atoms are shared between patterns (most are one letter or `\d`, `\s`, once or repeated). */
const sharedAtoms = new Map<string, Atom>();

class Unsupported extends Error {}

/** The pattern ready to match when it is in the simple subset; undefined otherwise (use re2js). */
export function simplePattern(source: string, caseSensitive: boolean): SimplePattern | undefined {
  try {
    return new SubsetParser(source, caseSensitive).parse();
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

class SubsetParser {
  private at = 0;
  private readonly atoms: Atom[] = [];
  /** Per group: first atom, atom after the last (-1 while open). */
  private readonly spans: number[] = [];
  /** The groups open at this point (their numbers, 0 for a non-capturing one). */
  private readonly open: number[] = [];
  private readonly names: string[] = [];
  private readonly namedGroups: number[] = [];

  constructor(
    private readonly source: string,
    private readonly caseSensitive: boolean,
  ) {}

  parse(): SimplePattern {
    if (!this.source.startsWith('^')) throw new Unsupported();
    this.at = 1;
    let anchoredEnd = false;
    while (this.at < this.source.length) {
      const ch = this.source[this.at]!;
      if (ch === '$' && this.at === this.source.length - 1 && this.open.length === 0) {
        anchoredEnd = true;
        this.at += 1;
      } else if (ch === '(') this.openGroup();
      else if (ch === ')') this.closeGroup();
      else this.atom();
    }
    if (this.open.length !== 0 || (this.atoms.length === 0 && !anchoredEnd)) throw new Unsupported();
    checkDeterministic(this.atoms);
    return new SimplePattern(this.atoms, this.spans, this.names.length ? this.names : NONE, this.namedGroups, anchoredEnd, !this.caseSensitive);
  }

  private openGroup(): void {
    const rest = this.source.slice(this.at);
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) {
      if (this.names.includes(named[1]!)) throw new Unsupported();
      this.names.push(named[1]!);
      this.namedGroups.push(this.spans.length / 2 + 1);
      this.at += named[0].length;
    } else if (rest.startsWith('(?:')) {
      this.at += 3;
    } else if (rest.startsWith('(?')) {
      throw new Unsupported();
    } else {
      this.at += 1;
    }
    if (named || !rest.startsWith('(?:')) {
      this.open.push(this.spans.length / 2 + 1);
      this.spans.push(this.atoms.length, -1);
    } else {
      this.open.push(0);
    }
    if (this.source[this.at] === ')') throw new Unsupported();
  }

  private closeGroup(): void {
    const group = this.open.pop();
    if (group === undefined) throw new Unsupported();
    if (group > 0) this.spans[2 * group - 1] = this.atoms.length;
    this.at += 1;
    // A repeated group could match in several ways: left to re2js.
    if (/^[*+?{]/.test(this.source.slice(this.at))) throw new Unsupported();
  }

  private atom(): void {
    const ch = this.source[this.at]!;
    let chars: Set<string>;
    if (ch === '[') chars = this.charClass();
    else if (ch === '\\') {
      chars = this.escape(this.source[this.at + 1] ?? '');
      this.at += 2;
    } else if (META.has(ch) || ch < ' ' || ch > '~') {
      throw new Unsupported();
    } else {
      chars = new Set(ch);
      this.at += 1;
    }
    const [min, max] = this.repetition();
    this.atoms.push(sharedAtom(this.caseSensitive ? chars : folded(chars), min, max));
  }

  /** An escape: `\d`, `\w`, `\s` or escaped punctuation. */
  private escape(escaped: string): Set<string> {
    if (escaped === 'd') return new Set(DIGITS);
    if (escaped === 'w') return new Set(WORD);
    if (escaped === 's') return new Set(RE2_SPACE);
    if (!RE2_ESCAPED_PUNCTUATION.test(escaped)) throw new Unsupported();
    return new Set(escaped);
  }

  /** A class of ASCII characters, ranges and `\d \w \s` (not negated, no POSIX names); `at` is on its `[`. */
  private charClass(): Set<string> {
    const chars = new Set<string>();
    this.at += 1;
    const first = this.at;
    if (this.source[this.at] === '^' || this.source[this.at] === ']') throw new Unsupported();
    while (this.source[this.at] !== ']') {
      // A '-' that is not first or last is a range's or an error: only ranges of two characters are taken.
      if (this.source[this.at] === '-' && this.at !== first && this.source[this.at + 1] !== ']') throw new Unsupported();
      const low = this.classChar(chars);
      if (low === undefined) continue;
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']') {
        this.at += 1;
        const high = this.classChar(chars);
        if (high === undefined || high < low) throw new Unsupported();
        for (let c = low.charCodeAt(0); c <= high.charCodeAt(0); c++) chars.add(String.fromCharCode(c));
      } else {
        chars.add(low);
      }
    }
    this.at += 1;
    return chars;
  }

  /** One character of a class (returned), or a `\d \w \s` (added to `chars`; undefined). */
  private classChar(chars: Set<string>): string | undefined {
    const ch = this.source[this.at];
    if (ch === undefined || ch === '[' || ch < ' ' || ch > '~') throw new Unsupported();
    if (ch !== '\\') {
      this.at += 1;
      return ch;
    }
    const escaped = this.source[this.at + 1] ?? '';
    this.at += 2;
    if (escaped === 'd' || escaped === 'w' || escaped === 's') {
      for (const c of this.escape(escaped)) chars.add(c);
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']') throw new Unsupported();
      return undefined;
    }
    if (!RE2_ESCAPED_PUNCTUATION.test(escaped)) throw new Unsupported();
    return escaped;
  }

  /** The repetition after an atom (greedy only); [1, 1] when there is none. */
  private repetition(): [number, number] {
    const rest = this.source.slice(this.at);
    const counted = /^\{(0|[1-9]\d{0,3})(,(0|[1-9]\d{0,3})?)?\}/.exec(rest);
    let taken: [number, number] | undefined;
    if (rest[0] === '*') taken = [0, Infinity];
    else if (rest[0] === '+') taken = [1, Infinity];
    else if (rest[0] === '?') taken = [0, 1];
    else if (counted) {
      const min = Number(counted[1]);
      const max = counted[2] === undefined ? min : counted[3] === undefined ? Infinity : Number(counted[3]);
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT) || max < min || max === 0) throw new Unsupported();
      taken = [min, max];
    }
    if (!taken) return [1, 1];
    this.at += counted ? counted[0].length : 1;
    // Lazy (`+?`) and stacked repetitions are left to re2js.
    if (/^[*+?{]/.test(this.source.slice(this.at))) throw new Unsupported();
    return taken;
  }
}

function sharedAtom(chars: ReadonlySet<string>, min: number, max: number): Atom {
  const set = new Uint32Array(4);
  for (const ch of chars) {
    const code = ch.charCodeAt(0);
    set[code >> 5]! |= 1 << (code & 31);
  }
  const key = `${set.join(',')}:${min}:${max}`;
  let atom = sharedAtoms.get(key);
  if (!atom) sharedAtoms.set(key, (atom = { set, min, max }));
  return atom;
}

/** Throws unless every variable repetition is last or followed by a required atom it shares no character with. */
function checkDeterministic(atoms: readonly Atom[]): void {
  for (let i = 0; i < atoms.length; i++) {
    const atom = atoms[i]!;
    if (atom.min === atom.max) continue;
    const next = atoms[i + 1];
    if (!next) continue;
    if (next.min === 0) throw new Unsupported();
    for (let w = 0; w < 4; w++) if ((atom.set[w]! & next.set[w]!) !== 0) throw new Unsupported();
  }
}

/** `chars` with both cases of every ASCII letter in it. */
function folded(chars: ReadonlySet<string>): Set<string> {
  const out = new Set(chars);
  for (const ch of chars) {
    out.add(ch.toLowerCase());
    out.add(ch.toUpperCase());
  }
  return out;
}
