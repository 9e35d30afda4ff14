// Derives, from a pattern's source, literals of which every match must contain at least one: the
// pattern prefilter skips the regex for a message containing none of them. The analysis is
// deliberately small and conservative: it reads only a whitelisted part of RE2 syntax and gives up
// (no prefilter: the regex always runs) on anything else, so a wrong guess can cost speed, never a match.
// It runs only on patterns re2js has already compiled, so the syntax is known to be valid.
import { foldCodePoint } from './pattern-fold.js';

/** A literal every match contains; `folded` means it is compared with the folded message (foldForPrefilter). */
export interface RequiredLiteral {
  readonly text: string;
  readonly folded: boolean;
}

/** At least one of these occurs in every match; null when nothing is known. */
export type Requirement = readonly RequiredLiteral[] | null;

/** Above this many alternatives the prefilter would cost more than it saves. */
const MAX_ALTERNATIVES = 16;

class Unsupported extends Error {}

type Item = { kind: 'char'; ch: string; folded: boolean } | { kind: 'req'; req: Requirement };

const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['t', '\t'],
  ['n', '\n'],
  ['r', '\r'],
  ['f', '\f'],
  ['v', '\v'],
  ['a', '\x07'],
]);
const ZERO_OR_CLASS_ESCAPES = new Set(['d', 'D', 's', 'S', 'w', 'W', 'b', 'B', 'A', 'z']);
/** Characters RE2 takes escaped as themselves (`\` + ASCII punctuation). */
export const RE2_ESCAPED_PUNCTUATION = /^[!-/:-@[-`{-~]$/;
const REPEAT = /^\{(\d+)(?:,(\d*))?\}/;
/** The letters a case-insensitive pattern's second chance reads as i, even with case (turkish-i.ts). */
const TURKISH_I_FAMILY = new Set(['i', '\u0130', '\u0131']);
const FLAGS = /^\(\?([imsU]*(?:-[imsU]*)?)([:)])/;

/** The requirement of a compiled pattern; `caseInsensitive` is how it was compiled. */
export function requiredLiterals(source: string, caseInsensitive: boolean): Requirement {
  try {
    const parser = new LiteralParser(source, caseInsensitive);
    const req = parser.alternation();
    return parser.atEnd() ? req : null;
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

class LiteralParser {
  private readonly cps: string[];
  private pos = 0;
  /** A case-insensitive pattern reads İ and ı as i even where `(?-i)` turns case on (turkish-i.ts). */
  private readonly plainI: boolean;

  constructor(
    source: string,
    private fold: boolean,
  ) {
    this.cps = [...source];
    this.plainI = fold;
  }

  atEnd(): boolean {
    return this.pos === this.cps.length;
  }

  /** Branches separated by '|' up to ')' or the end: a match contains a literal of whichever branch it took. */
  alternation(): Requirement {
    const branches: Requirement[] = [this.branch()];
    while (this.cps[this.pos] === '|') {
      this.pos++;
      branches.push(this.branch());
    }
    if (branches.length === 1) return branches[0]!;
    const all: RequiredLiteral[] = [];
    for (const req of branches) {
      if (req === null) return null;
      for (const lit of req) if (!all.some((l) => l.text === lit.text && l.folded === lit.folded)) all.push(lit);
    }
    return all.length > MAX_ALTERNATIVES ? null : all;
  }

  private branch(): Requirement {
    const items: Item[] = [];
    let afterFlags = false;
    for (;;) {
      const c = this.cps[this.pos];
      if (c === undefined || c === '|' || c === ')') break;
      if (c === '*' || c === '+' || c === '?' || (c === '{' && this.repeatAhead())) {
        if (afterFlags || items.length === 0) throw new Unsupported();
        const min = this.quantifier();
        const last = items.pop()!;
        if (min === 0) items.push({ kind: 'req', req: null });
        // A repeated character stays required but can no longer join its neighbours into one run.
        else items.push(last.kind === 'char' ? { kind: 'req', req: [{ text: last.ch, folded: last.folded }] } : last);
        continue;
      }
      afterFlags = false;
      if (c === '(') {
        const flags = FLAGS.exec(this.cps.slice(this.pos, this.pos + 16).join(''));
        if (flags && flags[2] === ')') {
          // (?i) etc.: changes case folding for the rest of the enclosing group.
          this.applyFlags(flags[1]!);
          this.pos += flags[0].length;
          afterFlags = true;
          continue;
        }
        items.push({ kind: 'req', req: this.group() });
        continue;
      }
      items.push(this.atom());
    }
    return bestOf(items);
  }

  private group(): Requirement {
    const saved = this.fold;
    const rest = this.cps.slice(this.pos, this.pos + 80).join('');
    const flags = FLAGS.exec(rest);
    if (flags) {
      this.applyFlags(flags[1]!);
      this.pos += flags[0].length;
    } else if (rest.startsWith('(?:')) {
      this.pos += 3;
    } else if (rest.startsWith('(?P<') || rest.startsWith('(?<')) {
      const close = this.cps.indexOf('>', this.pos);
      if (close < 0) throw new Unsupported();
      this.pos = close + 1;
    } else if (rest.startsWith('(?')) {
      throw new Unsupported();
    } else {
      this.pos += 1;
    }
    const req = this.alternation();
    if (this.cps[this.pos] !== ')') throw new Unsupported();
    this.pos++;
    this.fold = saved;
    return req;
  }

  private applyFlags(flags: string): void {
    const [on = '', off = ''] = flags.split('-');
    if (on.includes('i')) this.fold = true;
    if (off.includes('i')) this.fold = false;
  }

  private atom(): Item {
    const c = this.cps[this.pos]!;
    this.pos++;
    if (c === '.' || c === '^' || c === '$' || c === '{') return { kind: 'req', req: null };
    if (c === '[') {
      this.skipClass();
      return { kind: 'req', req: null };
    }
    if (c === '\\') return this.escape();
    return this.literal(c);
  }

  private literal(ch: string): Item {
    if (this.fold || (this.plainI && TURKISH_I_FAMILY.has(ch))) return { kind: 'char', ch: foldCodePoint(ch.codePointAt(0)!), folded: true };
    return { kind: 'char', ch, folded: false };
  }

  private escape(): Item {
    const e = this.cps[this.pos];
    if (e === undefined) throw new Unsupported();
    this.pos++;
    if (ZERO_OR_CLASS_ESCAPES.has(e)) return { kind: 'req', req: null };
    if (e === 'p' || e === 'P' || e === 'x') {
      if (this.cps[this.pos] === '{') this.skipPast('}');
      else this.pos += e === 'x' ? 2 : 1;
      return { kind: 'req', req: null };
    }
    const simple = SIMPLE_ESCAPES.get(e);
    if (simple !== undefined) return this.literal(simple);
    if (RE2_ESCAPED_PUNCTUATION.test(e)) return this.literal(e);
    throw new Unsupported(); // \Q…\E, octal, \C and anything else: not worth the risk
  }

  private skipClass(): void {
    if (this.cps[this.pos] === '^') this.pos++;
    if (this.cps[this.pos] === ']') throw new Unsupported();
    for (;;) {
      const c = this.cps[this.pos];
      if (c === undefined) throw new Unsupported();
      if (c === ']') {
        this.pos++;
        return;
      }
      if (c === '\\') {
        const e = this.cps[this.pos + 1];
        if (e === undefined || e === 'Q') throw new Unsupported();
        this.pos += 2;
        if ((e === 'p' || e === 'P' || e === 'x') && this.cps[this.pos] === '{') this.skipPast('}');
      } else if (c === '[') {
        // Only [:name:] may nest in a class.
        if (this.cps[this.pos + 1] !== ':') throw new Unsupported();
        let end = this.pos + 2;
        while (end < this.cps.length && !(this.cps[end] === ':' && this.cps[end + 1] === ']')) end++;
        if (end >= this.cps.length) throw new Unsupported();
        this.pos = end + 2;
      } else {
        this.pos++;
      }
    }
  }

  private skipPast(ch: string): void {
    const at = this.cps.indexOf(ch, this.pos);
    if (at < 0) throw new Unsupported();
    this.pos = at + 1;
  }

  private repeatAhead(): boolean {
    return REPEAT.test(this.cps.slice(this.pos, this.pos + 24).join(''));
  }

  /** Consumes a quantifier (and a lazy '?'); returns its minimum count. */
  private quantifier(): number {
    const c = this.cps[this.pos]!;
    let min: number;
    if (c === '{') {
      const m = REPEAT.exec(this.cps.slice(this.pos, this.pos + 24).join(''))!;
      min = Number(m[1]);
      this.pos += m[0].length;
    } else {
      min = c === '+' ? 1 : 0;
      this.pos++;
    }
    if (this.cps[this.pos] === '?') this.pos++;
    return min;
  }
}

/** A concatenation needs all its parts, so any one part's requirement will do: take the most selective. */
function bestOf(items: readonly Item[]): Requirement {
  const candidates: RequiredLiteral[][] = [];
  let run = '';
  let runFolded = false;
  const endRun = () => {
    if (run !== '') candidates.push([{ text: run, folded: runFolded }]);
    run = '';
  };
  for (const item of items) {
    if (item.kind === 'char') {
      if (run !== '' && item.folded !== runFolded) endRun();
      run += item.ch;
      runFolded = item.folded;
    } else {
      endRun();
      if (item.req) candidates.push([...item.req]);
    }
  }
  endRun();
  let best: RequiredLiteral[] | null = null;
  for (const req of candidates) {
    if (!best || score(req) > score(best)) best = req;
  }
  return best;
}

/** Longer shortest literal first (rarer in messages), then fewer alternatives. */
function score(req: readonly RequiredLiteral[]): number {
  return Math.min(...req.map((l) => l.text.length)) * 100 - req.length;
}
