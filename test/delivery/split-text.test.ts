import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_MESSAGE_LENGTH, splitMessageText } from '../../src/delivery/split-text.js';

// Lone surrogates mean a pair was cut.
const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

describe('splitting long replies', () => {
  it('keeps a reply within the limit as one message', () => {
    expect(splitMessageText('hello')).toEqual(['hello']);
    const exact = 'x'.repeat(MAX_MESSAGE_LENGTH);
    expect(splitMessageText(exact)).toEqual([exact]);
  });

  it('splits at a line break first', () => {
    const first = 'a'.repeat(3000);
    const second = 'b b '.repeat(500);
    expect(splitMessageText(`${first}\n${second}`)).toEqual([first, second]);
  });

  it('falls back to a word boundary when no line break is near the end', () => {
    const words = Array.from({ length: 1000 }, (_, i) => `word${i}`).join(' ');
    const parts = splitMessageText(words);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
      expect(part).toMatch(/^word\d+( word\d+)*$/);
    }
    expect(parts.join(' ')).toBe(words);
  });

  it('never cuts a surrogate pair when it must cut inside a word', () => {
    const text = '😀'.repeat(3000); // 6000 UTF-16 code units, no spaces
    const parts = splitMessageText(text);
    expect(parts.join('')).toBe(text);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
      expect(wellFormed(part)).toBe(true);
    }
  });

  it('always yields well-formed parts within the limit that keep every non-blank character', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', '\n', 'xyz'), maxLength: 400 }), fc.integer({ min: 8, max: 60 }), (text, limit) => {
        const parts = splitMessageText(text, limit);
        for (const part of parts) {
          expect(part.length).toBeLessThanOrEqual(limit);
          expect(wellFormed(part)).toBe(true);
          expect(part.trim()).not.toBe('');
        }
        expect(parts.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      }),
    );
  });
});
