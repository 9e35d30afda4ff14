// One-line values of the fast YAML reader (src/yaml/subset-scalars.ts): plain scalars that start like a number,
// and flow lists and mappings written by hand, read exactly as `yaml` reads them, or left to it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBlockSubset } from '../../src/yaml/block-subset.js';
import { expectSameAsYaml, tricky } from './yaml-reference.js';

describe('one-line values of the fast reader', () => {
  it('reads durations, times and dates as the text yaml reads them, floats as numbers, and leaves the rarer numbers to yaml', () => {
    for (const text of ['3m', '15 min', '10:00', '2026-11-27', '09:00-18:00', '1.2.3', '1_000', '+1h']) {
      expect(expectSameAsYaml(`rules:\n  - id: a\n    in: ${text}\n`), text).toBe(true);
      expect((parseBlockSubset(`in: ${text}\n`)!.data as { in: unknown }).in).toBe(text);
    }
    for (const number of ['1.5', '.5', '1e3', '-1.5e-3', '12.', '-0.0', '52.5292'])
      expect(expectSameAsYaml(`rules:\n  - id: a\n    at: ${number}\n`), number).toBe(true);
    for (const number of ['0x1F', '0o17', '.inf', '-.inf', '.NaN']) expect(parseBlockSubset(`in: ${number}\n`), number).toBeUndefined();
  });

  it('agrees with yaml on one-line flow mappings written by hand, or gives up', () => {
    const key = fc.constantFrom(
      'command',
      'user.n',
      'a-b',
      '404',
      'true',
      '__proto__',
      'x y',
      '"q"',
      '"yes"',
      '"q r"',
      '"true"',
      '"__proto__"',
      'k',
      'k',
      'toString',
    );
    const value = fc.oneof(
      fc.constantFrom(...tricky.filter((t) => !t.includes('\n'))),
      fc.constantFrom(...tricky).map((t) => JSON.stringify(t)),
      fc.constantFrom(
        '[a, b]',
        '[]',
        '["x]y"]',
        "['a]', b]",
        '[1, "2"]',
        '{ c: d }',
        '',
        '{}',
        '[[a], b]',
        '[{ text: A, data: a }]',
        '{ c: [d, { e: 1.5 }] }',
        '[a: b]',
        '{ c: d, }',
      ),
    );
    const entry = fc.tuple(key, fc.constantFrom(': ', ':', ' : ', ':  '), value);
    const map = fc.tuple(
      fc.array(entry, { maxLength: 4 }),
      fc.constantFrom('{ ', '{', '{  '),
      fc.constantFrom(' }', '}', ', }', ' } # c', '}#c', ' }  '),
      fc.constantFrom(', ', ',', ' , '),
    );
    let accepted = 0;
    fc.assert(
      fc.property(map, fc.constantFrom('    start: ', '    - ', '  - '), ([entries, open, close, comma], at) => {
        const written = `${open}${entries.map(([k, sep, v]) => `${k}${sep}${v}`).join(comma)}${close}`;
        const text =
          at === '    - '
            ? `rules:\n  - id: a\n    examples:\n${at}${written}\n`
            : at === '  - '
              ? `rules:\n${at}${written}\n`
              : `rules:\n  - id: a\n${at}${written}\n`;
        if (expectSameAsYaml(text)) accepted += 1;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
    expect(
      expectSameAsYaml('flows:\n  - id: f\n    start: { command: book, texts: [book, reserve] }\n    cancel: { keywords: [stop], reply: "Stopped." }\n'),
    ).toBe(true);
  });
});
