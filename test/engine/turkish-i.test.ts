// The second chance of a case-insensitive pattern with the Turkish İ and ı read as i: how a pattern's own İ and ı
// are rewritten (always valid RE2), and that it only adds matches, with captures from the message as written.
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { LazyPattern } from '../../src/engine/lazy-pattern.js';
import { patternWithPlainI, withPlainI } from '../../src/engine/turkish-i.js';

describe('the Turkish İ and ı in case-insensitive patterns', () => {
  it('reads the pattern’s own İ and ı as i: replaced outside classes, added to a class that names one', () => {
    const cases: [string, string | undefined][] = [
      ['izmir', undefined],
      ['İzmİr', 'izmir'],
      ['ızmır', 'izmir'],
      ['\\x{130}stanbul|\\x{0131}', 'istanbul|i'],
      ['\\QİE\\E.\\x{41}', '\\QiE\\E.\\x{41}'],
      ['[İı]+stanbul', '(?:[İı]|i)+stanbul'],
      ['[]ı-]x', '(?:[]ı-]|i)x'],
      ['[^ı]İ', '[^ı]i'],
      ['[\\]\\x{130}[:alpha:]]', '(?:[\\]\\x{130}[:alpha:]]|i)'],
    ];
    for (const [source, expected] of cases) {
      expect({ source, rewritten: patternWithPlainI(source) }).toEqual({ source, rewritten: expected });
      if (expected !== undefined) expect(() => RE2JS.compile(expected, RE2JS.CASE_INSENSITIVE)).not.toThrow();
    }
  });

  it('reads the message’s İ and ı as i without moving any offset', () => {
    expect(withPlainI('İZMİR ışık')).toBe('iZMiR işik');
    expect(withPlainI('plain text')).toBeUndefined();
  });

  it('only adds matches: what matched before still matches, with the same captures', () => {
    const dotted = LazyPattern.validate('[^i](?<rest>zm)', false);
    // re2js alone: İ is not i, so [^i] takes it; the first chance answers as before.
    expect(dotted.captures('İzm')?.get(0)).toBe('İzm');
    const city = LazyPattern.validate('(?<c>i.m)ir', false);
    expect(city.captures('İZMİR')).toEqual(
      new Map<number | string, string | null>([
        [0, 'İZMİR'],
        [1, 'İZM'],
        ['c', 'İZM'],
      ]),
    );
    expect(city.test('ızmır')).toBe(true);
    expect(LazyPattern.validate('(?<c>i.m)ir', true).test('İZMİR')).toBe(false);
  });
});
