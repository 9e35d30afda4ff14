// Positions in a clean rule file without `yaml`'s node tree: a top-level key's and an item's of a top-level list
// (a rule, a flow) come from the fast reader and the text, and must be exactly where `yaml` puts them; any other
// position builds the tree once.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as yaml from 'yaml';
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { parseBlockSubset } from '../../src/yaml/block-subset.js';
import { parseYaml } from '../../src/yaml/source.js';
import { documentData, styles, writtenInStyle } from './yaml-reference.js';

vi.mock('yaml', async (original) => {
  const actual = await original<typeof import('yaml')>();
  return { ...actual, parseDocument: vi.fn(actual.parseDocument) };
});

type Position = { line: number; column: number };

/** Where `yaml` puts each key and value of an item's mapping (a value with no node of its own: at its key). */
type FieldPositions = Map<string, { key: Position; value: Position }>;

interface YamlPositions {
  keys: Map<string, Position>;
  items: Map<string, Position[]>;
  fields: Map<string, FieldPositions[]>;
}

/** Where `yaml` puts each top-level key, each item of each top-level list of `text`, and the items' own keys and values. */
function yamlPositions(text: string): YamlPositions {
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, uniqueKeys: true });
  const at = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const positions: YamlPositions = { keys: new Map(), items: new Map(), fields: new Map() };
  if (!yaml.isMap(doc.contents)) return positions;
  for (const pair of doc.contents.items) {
    if (!yaml.isScalar(pair.key)) continue;
    const name = String(pair.key.value);
    positions.keys.set(name, at(pair.key.range![0]));
    if (!yaml.isSeq(pair.value)) continue;
    positions.items.set(
      name,
      pair.value.items.map((item) => at((item as yaml.Node).range![0])),
    );
    positions.fields.set(
      name,
      pair.value.items.map((item) => {
        const own: FieldPositions = new Map();
        if (!yaml.isMap(item)) return own;
        for (const field of item.items) {
          if (!yaml.isScalar(field.key)) continue;
          const key = at(field.key.range![0]);
          const value = (field.value as yaml.Node | null)?.range;
          own.set(String(field.key.value), { key, value: value ? at(value[0]) : key });
        }
        return own;
      }),
    );
  }
  return positions;
}

/** Checks every fast position of `text` against `yaml`'s, and that none of them built a node tree. */
function expectFastPositionsAsYaml(file: string, text: string): number {
  const want = yamlPositions(text);
  const trees = vi.mocked(yaml.parseDocument);
  trees.mockClear();
  const parsed = parseYaml(file, text);
  let checked = 0;
  for (const [name, position] of want.keys) {
    expect(parsed.locate([name], true), `${file}: key ${name}`).toEqual({ file, ...position });
    checked++;
  }
  for (const [name, starts] of want.items) {
    starts.forEach((position, index) => expect(parsed.locate([name, index]), `${file}: ${name}[${index}]`).toEqual({ file, ...position }));
    checked += starts.length;
  }
  for (const [name, items] of want.fields) {
    items.forEach((own, index) => {
      for (const [field, { key, value }] of own) {
        expect(parsed.locate([name, index, field], true), `${file}: ${name}[${index}].${field} (key)`).toEqual({ file, ...key });
        expect(parsed.locate([name, index, field]), `${file}: ${name}[${index}].${field}`).toEqual({ file, ...value });
        checked += 2;
      }
    });
  }
  expect(trees, `${file} built a node tree`).not.toHaveBeenCalled();
  return checked;
}

describe("a clean file's positions without yaml's node tree", () => {
  it("are yaml's for the repository's rule files the fast reader reads", async () => {
    const dir = new URL('../../rules/', import.meta.url).pathname;
    const files = (await readdir(dir)).filter((name) => name.endsWith('.yaml'));
    let fastFiles = 0;
    for (const name of files) {
      const text = await readFile(join(dir, name), 'utf8');
      vi.mocked(yaml.parseDocument).mockClear();
      parseYaml(name, text);
      if (vi.mocked(yaml.parseDocument).mock.calls.length > 0) continue; // outside the fast reader's subset
      expect(expectFastPositionsAsYaml(name, text)).toBeGreaterThan(0);
      fastFiles++;
    }
    expect(fastFiles).toBeGreaterThanOrEqual(3);
  });

  it("are yaml's for rule files written in every style YAML.stringify has, with comments", () => {
    let checked = 0;
    fc.assert(
      fc.property(documentData, styles, (data, style) => {
        const text = writtenInStyle(data, style);
        if (parseBlockSubset(text)) checked += expectFastPositionsAsYaml('bot.yaml', text);
      }),
      { numRuns: 300 },
    );
    expect(checked).toBeGreaterThan(1000);
  });

  it('find a key only where it is written at the top level, not in a comment, a literal block or a longer key', () => {
    const text = [
      '# rules: in a comment', // 1
      'rules_note: |', // 2
      '  rules: inside a literal block', // 3
      'languages:', // 4
      '  default: en', // 5
      'rules:', // 6
      '  - id: a', // 7
      '    text: hi', // 8
      '    reply: |', // 9
      '      rules:', // 10
      '  - id: b', // 11
      '    text: ho', // 12
      '    reply: ho', // 13
      '',
    ].join('\n');
    expect(expectFastPositionsAsYaml('bot.yaml', text)).toBe(17);
    expect(parseYaml('bot.yaml', text).locate(['rules'], true)).toEqual({ file: 'bot.yaml', line: 6, column: 1 });
  });

  it('leave a top-level mapping written indented to yaml, which places its keys', () => {
    const text = '  rules:\n    - id: a\n      text: hi\n      reply: hello\n';
    const trees = vi.mocked(yaml.parseDocument);
    trees.mockClear();
    expect(parseYaml('bot.yaml', text).locate(['rules'], true)).toEqual({ file: 'bot.yaml', line: 1, column: 3 });
    expect(trees).toHaveBeenCalledTimes(1);
  });

  it('build the tree once for any other position, and agree with it', () => {
    const text = 'rules:\n  - id: a\n    text: hi\n    when:\n      user.vip: true\n    reply: hello\n';
    const trees = vi.mocked(yaml.parseDocument);
    trees.mockClear();
    const parsed = parseYaml('bot.yaml', text);
    expect(parsed.locate(['rules', 0, 'reply'])).toEqual({ file: 'bot.yaml', line: 6, column: 12 });
    expect(trees).not.toHaveBeenCalled();
    expect(parsed.locate(['rules', 0, 'when', 'user.vip'])).toEqual({ file: 'bot.yaml', line: 5, column: 17 });
    expect(parsed.locate(['rules', 0, 'when', 'user.vip'], true)).toEqual({ file: 'bot.yaml', line: 5, column: 7 });
    expect(trees).toHaveBeenCalledTimes(1);
  });
});
