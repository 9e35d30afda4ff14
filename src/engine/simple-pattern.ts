// Recognises the simple, start-anchored pattern shapes (e.g. `^order\s+(\d+)$`) that V8's own RegExp can run with the
// same result as re2js and still in linear time, and writes them as JavaScript source. A re2js program costs ~140 µs
// to compile and ~14 KB to keep; a RegExp costs a few µs and a few hundred bytes. Anything outside the subset (or in
// doubt) stays on re2js. test/engine/simple-pattern.test.ts checks the subset against re2js.
//
// Why the subset is safe: it is anchored with `^` (one start position), has no alternation, no `.`, no quantified
// group, and every variable repetition is followed by the end or by a required atom whose characters it cannot
// match. So at every point at most one length of a repetition lets the rest go on: backtracking only gives back
// characters of one run, each tried once, and the work is linear in the message. With one way to match, the
// leftmost-first match and its groups are the same in both engines.
// Why the result is the same: only ASCII atoms whose meaning agrees between RE2 and JavaScript with the `u` flag
// (`\s` is written out as RE2's `[\t\n\f\r ]`); case-insensitive matching is Unicode simple case folding in both
// (so `k` also matches the Kelvin sign and `s` the long s, the only non-ASCII partners of ASCII letters).

/** A pattern in the simple subset: its JavaScript source (for `new RegExp(source, flags)`) and its groups. */
export interface SimplePattern {
  readonly source: string;
  readonly flags: string;
  readonly groupCount: number;
  readonly groupNames: readonly string[];
}

/** RE2's maximum repeat count; larger counts are left to re2js, which reports them. */
const MAX_REPEAT = 1000;
const META = new Set('\\.+*?()|[]{}^$');
/** Characters RE2 takes escaped as themselves (`\` + ASCII punctuation). */
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;
/** What JavaScript with the `u` flag allows to be escaped as itself, outside and inside a class. */
const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/');
const JS_CLASS_SYNTAX = new Set('^$\\.*+?()[]{}|/-');
const RE2_SPACE = '\t\n\f\r ';
const DIGITS = '0123456789';
const WORD = `${DIGITS}ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_`;

/** One atom of the pattern with its repetition: `chars` is the ASCII characters it matches (case-folded when it applies). */
interface Atom {
  readonly chars: ReadonlySet<string>;
  readonly min: number;
  readonly max: number;
}

class Unsupported extends Error {}

/** The pattern as a JavaScript RegExp source when it is in the simple subset; undefined otherwise (use re2js). */
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
  private out = '';
  private depth = 0;
  private readonly atoms: Atom[] = [];
  private readonly names: string[] = [];
  private groups = 0;

  constructor(
    private readonly source: string,
    private readonly caseSensitive: boolean,
  ) {}

  parse(): SimplePattern {
    if (!this.source.startsWith('^')) throw new Unsupported();
    this.at = 1;
    this.out = '^';
    let anchoredEnd = false;
    while (this.at < this.source.length) {
      const ch = this.source[this.at]!;
      if (ch === '$' && this.at === this.source.length - 1 && this.depth === 0) {
        anchoredEnd = true;
        this.out += '$';
        this.at += 1;
      } else if (ch === '(') this.openGroup();
      else if (ch === ')') this.closeGroup();
      else this.atom();
    }
    if (this.depth !== 0 || (this.atoms.length === 0 && !anchoredEnd)) throw new Unsupported();
    checkDeterministic(this.atoms);
    return { source: this.out, flags: this.caseSensitive ? 'u' : 'iu', groupCount: this.groups, groupNames: this.names };
  }

  private openGroup(): void {
    const rest = this.source.slice(this.at);
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) {
      if (this.names.includes(named[1]!)) throw new Unsupported();
      this.names.push(named[1]!);
      this.groups += 1;
      this.out += `(?<${named[1]}>`;
      this.at += named[0].length;
    } else if (rest.startsWith('(?:')) {
      this.out += '(?:';
      this.at += 3;
    } else if (rest.startsWith('(?')) {
      throw new Unsupported();
    } else {
      this.groups += 1;
      this.out += '(';
      this.at += 1;
    }
    if (this.source[this.at] === ')') throw new Unsupported();
    this.depth += 1;
  }

  private closeGroup(): void {
    if (this.depth === 0) throw new Unsupported();
    this.depth -= 1;
    this.out += ')';
    this.at += 1;
    // A repeated group could match in several ways: left to re2js.
    if (/^[*+?{]/.test(this.source.slice(this.at))) throw new Unsupported();
  }

  private atom(): void {
    const ch = this.source[this.at]!;
    let chars: Set<string>;
    if (ch === '[') chars = this.charClass();
    else if (ch === '\\') {
      const escaped = this.source[this.at + 1] ?? '';
      chars = this.escape(escaped, false);
      this.at += 2;
    } else if (META.has(ch) || ch < ' ' || ch > '~') {
      throw new Unsupported();
    } else {
      chars = new Set(ch);
      this.out += JS_SYNTAX.has(ch) ? `\\${ch}` : ch;
      this.at += 1;
    }
    const [min, max] = this.repetition();
    this.atoms.push({ chars: this.caseSensitive ? chars : folded(chars), min, max });
  }

  /** An escape: `\d`, `\w`, `\s` or escaped punctuation; written to the output (inside a class when `inClass`). */
  private escape(escaped: string, inClass: boolean): Set<string> {
    if (escaped === 'd' || escaped === 'w') {
      this.out += `\\${escaped}`;
      return new Set(escaped === 'd' ? DIGITS : WORD);
    }
    if (escaped === 's') {
      this.out += inClass ? '\\t\\n\\f\\r ' : '[\\t\\n\\f\\r ]';
      return new Set(RE2_SPACE);
    }
    if (!PUNCTUATION.test(escaped)) throw new Unsupported();
    this.out += (inClass ? JS_CLASS_SYNTAX : JS_SYNTAX).has(escaped) ? `\\${escaped}` : escaped;
    return new Set(escaped);
  }

  /** A class of ASCII characters, ranges and `\d \w \s` (not negated, no POSIX names); `at` is on its `[`. */
  private charClass(): Set<string> {
    const chars = new Set<string>();
    this.at += 1;
    const first = this.at;
    if (this.source[this.at] === '^' || this.source[this.at] === ']') throw new Unsupported();
    this.out += '[';
    while (this.source[this.at] !== ']') {
      // A '-' that is not first or last is a range's or an error: only ranges of two characters are taken.
      if (this.source[this.at] === '-' && this.at !== first && this.source[this.at + 1] !== ']') throw new Unsupported();
      const low = this.classChar(chars);
      if (low === undefined) continue;
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']') {
        this.at += 1;
        const high = this.classChar(chars);
        if (high === undefined || high < low) throw new Unsupported();
        this.writeClassChar(low);
        this.out += '-';
        this.writeClassChar(high);
        for (let c = low.charCodeAt(0); c <= high.charCodeAt(0); c++) chars.add(String.fromCharCode(c));
      } else {
        this.writeClassChar(low);
        chars.add(low);
      }
    }
    this.out += ']';
    this.at += 1;
    return chars;
  }

  /** One character of a class (returned, not yet written), or a `\d \w \s` (written, added to `chars`, undefined). */
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
      for (const c of this.escape(escaped, true)) chars.add(c);
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']') throw new Unsupported();
      return undefined;
    }
    if (!PUNCTUATION.test(escaped)) throw new Unsupported();
    return escaped;
  }

  private writeClassChar(ch: string): void {
    this.out += JS_CLASS_SYNTAX.has(ch) ? `\\${ch}` : ch;
  }

  /** The repetition after an atom (greedy only), written to the output; [1, 1] when there is none. */
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
    const written = counted ? counted[0] : rest[0]!;
    this.out += written;
    this.at += written.length;
    // Lazy (`+?`) and stacked repetitions are left to re2js.
    if (/^[*+?{]/.test(this.source.slice(this.at))) throw new Unsupported();
    return taken;
  }
}

/** Throws unless every variable repetition is last or followed by a required atom it shares no character with. */
function checkDeterministic(atoms: readonly Atom[]): void {
  for (let i = 0; i < atoms.length; i++) {
    const atom = atoms[i]!;
    if (atom.min === atom.max) continue;
    const next = atoms[i + 1];
    if (!next) continue;
    if (next.min === 0) throw new Unsupported();
    for (const ch of atom.chars) if (next.chars.has(ch)) throw new Unsupported();
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
