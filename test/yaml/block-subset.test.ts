// The fast block-YAML reader must give exactly what `yaml` gives (data and each rule's position), or
// give up; and it must not give up on the plain files operators and the benchmark write.
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBlockSubset } from '../../src/yaml/block-subset.js';
import { documentData, expectSameAsYaml, styles, tricky, writtenInStyle } from './yaml-reference.js';

describe('fast block-YAML reader', () => {
  it('reads dotted keys (set, when), status keys (on) and plain double-quoted keys (choice options) as yaml does', () => {
    const text = [
      'rules:',
      '  - id: a',
      '    text: hi',
      '    on:',
      '      ok:',
      '        reply: found',
      '      404:',
      '        reply: not found',
      '    set:',
      '      user.name: "{{text}}"',
      '      chat.count.total: 3',
      '    when:',
      '      user.name:',
      '        exists: true',
      'flows:',
      '  - id: f',
      '    steps:',
      '      - id: c',
      '        accept:',
      '          choice:',
      '            "yes": [y, ja]',
      '            "no way": [n]',
      '            "": [empty]',
      '',
    ].join('\n');
    expect(expectSameAsYaml(text)).toBe(true);
    // An escape inside a quoted key is yaml's to read.
    expect(parseBlockSubset('a:\n  "x\\ty": 1\n')).toBeUndefined();
    // Other numbers as keys are yaml's to read (0x1F: is 31 there).
    expect(parseBlockSubset('a:\n  0x1F: 1\n')).toBeUndefined();
    expect(parseBlockSubset('a:\n  4040: 1\n')).toBeUndefined();
    // Day ranges of opening hours are plain keys with a dash.
    expect(expectSameAsYaml('hours:\n  office:\n    mon-fri: "09:00-18:00"\n    sat-sun: closed\n')).toBe(true);
  });

  it('reads the repository rule files exactly as yaml does', async () => {
    // (40-buttons.yaml shares a keyboard through an anchor: yaml's to read.)
    for (const file of [
      'rules/05-community.yaml',
      'rules/10-commands.yaml',
      'rules/20-conversation.yaml',
      'rules/30-booking.yaml',
      'rules/50-members.yaml',
      'rules/60-media.yaml',
      'rules/70-handoff.yaml',
      'rules/99-fallback.yaml',
    ]) {
      const text = await readFile(file, 'utf8');
      expect(expectSameAsYaml(text), file).toBe(true);
    }
  });

  it('reads what YAML.stringify writes, in every style, exactly as yaml does', () => {
    let accepted = 0;
    fc.assert(
      fc.property(documentData, styles, (data, style) => {
        const text = writtenInStyle(data, style);
        if (expectSameAsYaml(text)) accepted += 1;
      }),
      { numRuns: 400 },
    );
    // Most such files stay on the fast path (or the speed-up would be theoretical).
    expect(accepted).toBeGreaterThan(100);
  });

  it('agrees with yaml or gives up on hand-written lines with tricky scalars', () => {
    const line = fc.tuple(
      fc.constantFrom('', '  ', '    ', '   '),
      fc.constantFrom('- ', '', '-', '- - '),
      fc.constantFrom('id:', 'reply:', 'rules:', 'x', 'reply :', 'a b:', 'true:', '__proto__:'),
      fc.constantFrom(' ', '', '  '),
      fc.constantFrom(...tricky.filter((t) => !t.includes('\n'))),
      fc.constantFrom('', ' # c', '#c'),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        const text = `rules:\n${lines.map((parts) => parts.join('')).join('\n')}\n`;
        const fast = parseBlockSubset(text);
        if (fast) expectSameAsYaml(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with yaml on literal blocks and flow lists written by hand', () => {
    const blockLine = fc.constantFrom('text', '', '  more indented', '# not a comment here', 'a: b', '- x', '   ', 'ß 😀');
    const block = fc.tuple(
      fc.constantFrom('|', '|-', '| # c', '|-  # c'),
      fc.array(blockLine, { minLength: 1, maxLength: 5 }),
      fc.constantFrom('', '\n', '\n\n', '\n  \n'),
    );
    const flowItem = fc.oneof(
      fc.constantFrom(...tricky.filter((t) => !/[\n,[\]{}#]/.test(t))).map((t) => t.trim()),
      fc.constantFrom(...tricky).map((t) => JSON.stringify(t)),
    );
    const flow = fc.array(flowItem, { maxLength: 4 }).map((items) => `[${items.join(', ')}]`);
    let accepted = 0;
    fc.assert(
      fc.property(block, flow, fc.constantFrom('  ', '    '), ([header, body, after], list, indent) => {
        const lines = body.map((l) => (l === '' ? '' : `${indent}    ${l}`)).join('\n');
        const text = `rules:\n${indent}- id: a\n${indent}  reply: ${header}\n${lines}${after}\n${indent}  examples: ${list}\n# end\n${indent}- id: b\n${indent}  reply: ${header}\n${lines}\n`;
        if (expectSameAsYaml(text)) accepted += 1;
      }),
      { numRuns: 500 },
    );
    expect(accepted).toBeGreaterThan(50);
  });

  it('gives up on what it does not read: deep or multi-line flow, folded blocks, anchors, tabs, CR, duplicate keys', () => {
    for (const text of [
      'rules: [a, [b, [c, [d, [e, [f]]]]]]\n',
      'rules: [a,\n  b]\n',
      'rules: { a: b, a: c }\n',
      'rules: [a, b, ]\n',
      'rules: [a: b]\n',
      'rules:\n  - reply: >\n      x\n',
      'rules:\n  - reply: |+\n      x\n',
      'rules:\n  - &a x\n  - *a\n',
      'rules:\n\t- x\n',
      'rules:\r\n  - x\r\n',
      'a: 1\na: 2\n',
      'rules:\n  - a\n    b\n',
      '',
    ]) {
      expect(parseBlockSubset(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});
