// The literal analysis behind the pattern prefilter: what it demands of a message, and that it gives
// up (demands nothing) wherever it is not sure.
import { describe, expect, it } from 'vitest';
import { requiredLiterals } from '../../src/engine/pattern-literals.js';

const texts = (source: string, caseInsensitive = true) => requiredLiterals(source, caseInsensitive)?.map((l) => `${l.folded ? 'i:' : ''}${l.text}`) ?? null;

describe('required literals of a pattern', () => {
  it('takes the longest literal run of a concatenation, folded when case-insensitive', () => {
    expect(texts('^Order12\\s+(\\d+)$')).toEqual(['i:order12']);
    expect(texts('^Order12\\s+(\\d+)$', false)).toEqual(['Order12']);
    expect(texts('a\\.b\\?')).toEqual(['i:a.b?']);
  });

  it('needs one literal of every branch of an alternation, or nothing when a branch has none', () => {
    expect(texts('hello|world')).toEqual(['i:hello', 'i:world']);
    expect(texts('(?:refund|money back) now')).toEqual(['i:refund', 'i:money back']);
    expect(texts('(?:hi|yo) there')).toEqual(['i: there']);
    expect(texts('hello|\\d+')).toBeNull();
    expect(texts('(?:a|)b')).toEqual(['i:b']);
  });

  it('drops optional parts and keeps repeated ones apart', () => {
    expect(texts('colou?r', false)).toEqual(['colo']);
    expect(texts('ab+c', false)).toEqual(['a']);
    expect(texts('abc+de', false)).toEqual(['ab']);
    expect(texts('x*')).toBeNull();
    expect(texts('(?P<n>abcdef)?xyz')).toEqual(['i:xyz']);
    expect(texts('(?<n>abcdef){0,2}xy')).toEqual(['i:xy']);
    expect(texts('(abcdef){1,2}xy', false)).toEqual(['abcdef']);
    // Not a valid repeat, so RE2 reads '{,2}' literally.
    expect(texts('a{,2}', false)).toEqual([',2}']);
    expect(texts('ab(?i)+', false)).toBeNull();
  });

  it('follows inline case flags', () => {
    expect(texts('(?i)Ab(?-i:CD)ef', false)).toEqual(['i:ab']);
    expect(texts('Ab(?-i)CDE', true)).toEqual(['CDE']);
    expect(texts('(?i:ABC)de', false)).toEqual(['i:abc']);
    // With case, i, İ and ı still stand for each other in a case-insensitive pattern: compared folded.
    expect(texts('(?-i)İıi', true)).toEqual(['i:iii']);
    expect(texts('(?-i)İıi', false)).toEqual(['İıi']);
  });

  it('folds Unicode so that every case variant re2js accepts maps to the same text', () => {
    expect(texts('ΣΑΣ')).toEqual(['i:σασ']);
    expect(texts('Straße')).toEqual(['i:straße']);
    expect(texts('ẞ')).toEqual(['i:ß']);
    // The Turkish İ and ı fold to i: a case-insensitive pattern reads them as i (its second chance).
    expect(texts('İstanbul')).toEqual(['i:istanbul']);
    expect(texts('ızmır')).toEqual(['i:izmir']);
    expect(texts('привет\\p{L}мир')).toEqual(['i:привет']);
  });

  it('skips classes, escapes and anchors without mistaking them for literals', () => {
    expect(texts('[a-z]+foo[[:alpha:]]')).toEqual(['i:foo']);
    expect(texts('[\\]x]yz')).toEqual(['i:yz']);
    expect(texts('\\x{41}BC\\x41DE')).toEqual(['i:bc']);
    expect(texts('\\bword\\b')).toEqual(['i:word']);
    expect(texts('\\pLab\\p{Greek}')).toEqual(['i:ab']);
  });

  it('gives up on syntax it does not read', () => {
    expect(texts('\\Qa.b\\E')).toBeNull();
    expect(texts('[]a]bc')).toBeNull();
    expect(texts('a\\Cb')).toBeNull();
    expect(texts('.*')).toBeNull();
    expect(texts('')).toBeNull();
  });
});
