// The simple subset must mean exactly what re2js means: for every pattern it takes, the same validity, groups,
// and captures for every message; and shapes that could backtrack, or whose meaning differs, stay on re2js.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { LazyPattern } from '../../src/engine/lazy-pattern.js';
import { simplePattern } from '../../src/engine/simple-pattern.js';

/** An atom's source and characters that it (case-sensitively) matches, to build messages that reach it. */
const ATOMS: [string, string][] = [
  ['a', 'a'],
  ['A', 'A'],
  ['k', 'k'],
  ['s', 's'],
  ['1', '1'],
  ['-', '-'],
  ['_', '_'],
  ['\\.', '.'],
  ['\\-', '-'],
  ['\\d', '19'],
  ['\\w', 'aK_9'],
  ['\\s', ' \t\n'],
  ['[a-k]', 'ak'],
  ['[\\d_]', '5_'],
  ['[.\\s-]', '. -'],
  ['[A-Z]', 'AZ'],
  ['[s-]', 's-'],
  ['[\\w.]', 'a.'],
];
const QUANTIFIERS = ['', '', '', '?', '*', '+', '{2}', '{1,2}', '{2,}'];
/** Characters where RE2 and JavaScript could disagree: Unicode spaces, \v, the Kelvin sign and long s, a surrogate pair. */
const NOISE = ['K', 'k', '\u212A', 'S', 'ſ', 'ı', 'İ', '\v', '\u00a0', '\u2028', 'é', '😀', '\n', 'x', '0', ' '];

const piece = fc.record({ atom: fc.integer({ min: 0, max: ATOMS.length - 1 }), quantifier: fc.constantFrom(...QUANTIFIERS) });
const group = fc.record({ from: fc.nat(), length: fc.nat(), kind: fc.constantFrom('(', '(?:', '(?P<name>', '(?<v>') });
const pattern = fc.record({
  pieces: fc.array(piece, { minLength: 1, maxLength: 5 }),
  groups: fc.array(group, { maxLength: 2 }),
  end: fc.boolean(),
  caseSensitive: fc.boolean(),
});
const message = fc.record({
  counts: fc.array(fc.nat({ max: 3 }), { minLength: 5, maxLength: 5 }),
  noise: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...NOISE)), { maxLength: 2 }),
  seed: fc.nat(),
});

interface GeneratedPattern {
  pieces: { atom: number; quantifier: string }[];
  groups: { from: number; length: number; kind: string }[];
  end: boolean;
}

function sourceOf(p: GeneratedPattern): string {
  const parts = p.pieces.map((x) => ATOMS[x.atom]![0] + x.quantifier);
  for (const g of p.groups) {
    const from = g.from % parts.length;
    const to = Math.min(parts.length - 1, from + (g.length % parts.length));
    parts[from] = g.kind + parts[from]!;
    parts[to] = parts[to]! + ')';
  }
  return `^${parts.join('')}${p.end ? '$' : ''}`;
}

/** A message built from the pattern's atoms (so it often matches), with a little noise mixed in. */
function messageFor(pieces: { atom: number }[], m: { counts: number[]; noise: [number, string][]; seed: number }): string {
  let text = '';
  pieces.forEach((x, i) => {
    const chars = ATOMS[x.atom]![1];
    for (let n = 0; n < m.counts[i]!; n++) text += chars[(m.seed + n + i) % chars.length];
  });
  const cps = [...text];
  for (const [at, ch] of m.noise) cps.splice(at % (cps.length + 1), 0, ch);
  return cps.join('');
}

function re2Captures(source: string, caseSensitive: boolean, input: string, shown = input): unknown {
  const regex = RE2JS.compile(source, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  const matcher = regex.matcher(input);
  if (!matcher.find()) return undefined;
  const group = (g: number | string) => (matcher.start(g) < 0 ? null : shown.slice(matcher.start(g), matcher.end(g)));
  const captures = new Map<number | string, string | null>();
  for (let g = 0; g <= regex.groupCount(); g++) captures.set(g, group(g));
  for (const name of Object.keys(regex.namedGroups())) captures.set(name, group(name));
  return captures;
}

/**
 * What a pattern means: re2js's first match; for a case-insensitive pattern without one, the first match in the
 * message read with the Turkish İ and ı as i, its captures taken from the message as written.
 */
function expectedCaptures(source: string, caseSensitive: boolean, input: string): unknown {
  const first = re2Captures(source, caseSensitive, input);
  if (first || caseSensitive) return first;
  return re2Captures(source, false, input.replace(/[\u0130\u0131]/g, 'i'), input);
}

describe('simple patterns on JavaScript RegExp', () => {
  it('match exactly like re2js (with the Turkish İ and ı as i on a second chance): validity, groups and captures', () => {
    let taken = 0;
    let matched = 0;
    fc.assert(
      fc.property(pattern, fc.array(message, { minLength: 1, maxLength: 8 }), (p, messages) => {
        const source = sourceOf(p);
        const simple = simplePattern(source, p.caseSensitive);
        if (!simple) return;
        taken += 1;
        const regex = RE2JS.compile(source, p.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
        expect(simple.groupCount).toBe(regex.groupCount());
        expect([...simple.groupNames].sort()).toEqual(Object.keys(regex.namedGroups()).sort());
        const lazy = LazyPattern.validate(source, p.caseSensitive);
        for (const m of messages) {
          let input = messageFor(p.pieces, m);
          if (!p.caseSensitive && m.seed % 2 === 1) input = input.toUpperCase();
          const expected = expectedCaptures(source, p.caseSensitive, input);
          if (expected) matched += 1;
          expect({ source, input, captures: lazy.captures(input) }).toEqual({ source, input, captures: expected });
          expect(lazy.test(input)).toBe(expected !== undefined);
        }
      }),
      { numRuns: 1500, seed: 19 },
    );
    // Not vacuous: many generated patterns are in the subset, and many messages match them.
    expect(taken).toBeGreaterThan(300);
    expect(matched).toBeGreaterThan(500);
  });

  it('case-insensitive letters match their Unicode case partners, as in re2js', () => {
    const p = LazyPattern.validate('^(?P<w>[a-z]+)\\s+(\\w+)$', false);
    expect(simplePattern('^(?P<w>[a-z]+)\\s+(\\w+)$', false)).toBeDefined();
    for (const input of ['OK \u212Aſ', 'ſK 1', 'a\u00a0b', 'ab\vcd', 'ab cd\n']) {
      expect(p.captures(input)).toEqual(expectedCaptures('^(?P<w>[a-z]+)\\s+(\\w+)$', false, input));
    }
    expect(p.captures('order \u212A')?.get(2)).toBe('\u212A');
  });

  it('takes the common anchored shapes', () => {
    const order = simplePattern('^order12\\s+(\\d+)$', false);
    expect(order?.groupCount).toBe(1);
    expect(order?.captures('ORDER12 \t 345')).toEqual(
      new Map([
        [0, 'ORDER12 \t 345'],
        [1, '345'],
      ]),
    );
    expect(order?.test('order12 34x')).toBe(false);
    expect(simplePattern('^btn_1/x\\.y$', true)?.test('btn_1/x.y')).toBe(true);
    expect(simplePattern('^(?P<value>\\d{1,3})-(\\w+)$', true)?.groupNames).toEqual(['value']);
  });

  it('leaves to re2js what could backtrack, or could mean something else', () => {
    const refused = [
      '\\d+x', // not anchored: every start position would be tried
      '^(\\d+)+$', // a repeated group
      '^\\d+\\d+$', // two repetitions that share characters
      '^a*a$',
      '^\\w+\\d',
      '^a?b?c', // a repetition followed by an optional atom
      '^.*x', // `.`: newlines and surrogates differ
      '^a|b', // alternation
      '^\\bx',
      '^(?i)x',
      '^a+?b', // lazy
      '^[^a]+b', // negated class
      '^\\pL+',
      '^é+',
      '^a{,2}', // a literal `{` in RE2
      '^a{01}',
      '^[a-\\d]',
      '^[\\d-z]',
      '^[a-c-e]',
      '^a{1001}',
      '^(?P<1x>a)',
      '^(?P<n>a)(?P<n>b)',
      '^()',
      '^x$y',
      '^\\x41',
      '^\\Qa\\E',
    ];
    for (const source of refused) expect({ source, simple: simplePattern(source, true) }).toEqual({ source, simple: undefined });
  });

  it('still rejects invalid patterns (through re2js)', () => {
    for (const source of ['^a{2,1}', '^(a', '^a)', '^a**', '^[z-a]']) expect(() => LazyPattern.validate(source, true)).toThrow();
  });
});
