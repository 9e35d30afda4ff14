// Test support for the fast YAML reader: what `yaml` itself reads from a text (the reference every fast read must
// equal), and scalars written the ways a hand-written file may hold them.
import fc from 'fast-check';
import { expect } from 'vitest';
import YAML, { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { parseBlockSubset } from '../../src/yaml/block-subset.js';

/** What `yaml` says: the data, and the start of each item of the top-level `rules` list. */
function reference(text: string): { data: unknown; starts: { line: number; column: number }[] } | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) return undefined;
  const starts: { line: number; column: number }[] = [];
  const rules = isMap(doc.contents) ? doc.contents.items.find((p) => isScalar(p.key) && p.key.value === 'rules')?.value : undefined;
  if (isSeq(rules)) {
    for (const item of rules.items) {
      const { line, col } = lineCounter.linePos((item as unknown as { range: [number] }).range[0]);
      starts.push({ line, column: col });
    }
  }
  return { data: doc.toJS(), starts };
}

/** Whether the fast reader read `text`; when it did, its data and rule positions must be `yaml`'s. */
export function expectSameAsYaml(text: string): boolean {
  const fast = parseBlockSubset(text);
  if (!fast) return false;
  const want = reference(text);
  expect(want, `yaml refuses what the subset reader accepted:\n${text}`).toBeDefined();
  expect(fast.data, text).toStrictEqual(want!.data);
  const rules = (fast.data as { rules?: unknown } | null)?.rules;
  // (A flow list has no recorded starts: positions then come from `yaml`.)
  const starts = Array.isArray(rules) ? fast.itemStarts.get(rules) : undefined;
  if (starts) expect(starts, text).toEqual(want!.starts);
  return true;
}

/** Scalars written by hand that a reader may get wrong: to be read as `yaml` reads them, or left to it. */
export const tricky = [
  'hi',
  'true',
  'True',
  'TRUE',
  'yes',
  'no',
  'null',
  'Null',
  '~',
  '1',
  '-0',
  '007',
  '+12',
  '1.5',
  '.5',
  '1e3',
  '0x1F',
  '0o17',
  '.inf',
  '.NaN',
  '12345678901234567890',
  '-1001234567890',
  'a: b',
  'a:b',
  'a #b',
  'a#b',
  'x:',
  "it's",
  'say "hi"',
  '# x',
  '- x',
  '-x',
  ':x',
  '?x',
  '@x',
  '%x',
  '`x`',
  '[a]',
  '{a}',
  'a[0]',
  '*a',
  '&a',
  '!a',
  '|',
  '>',
  'ß',
  '😀 ok',
  ' lead',
  'trail ',
  'two\nlines',
  'tab\there',
  'back\\slash',
  '^order1\\s+(\\d+)$',
  '{{first_name}}',
  'a, b',
  'toString',
  'constructor',
  '__proto__',
  'hasOwnProperty',
  '',
  ' ',
  'é\u0301',
  '\u2028',
  'end:',
  'x # y # z',
  '"',
  "'",
  '\\',
  'order 9 #{{match.1}}',
  '3m',
  '15 min',
  '10:00',
  '1:30',
  '2026-11-27',
  '09:00-18:00',
  '1.2.3',
  '0.0.0.0',
  '1_000',
  '+.5',
  '-.inf',
  '+.Inf',
  '.5e3',
  '5e',
  '1e+3',
  '-1.5e-3',
  '12.',
  '0x',
  '0X1F',
  '0o8',
  '+0x1F',
  '+',
  '.',
  '+1h',
  '-5 days',
];

const scalarValue = fc.oneof(
  fc.constantFrom<unknown>(...tricky),
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 12 }),
);
const ruleObject = fc.record(
  {
    id: fc.constantFrom('a', 'b-1', 'r.2'),
    command: scalarValue,
    reply: fc.oneof(scalarValue, fc.array(scalarValue, { minLength: 1, maxLength: 3 })),
    keywords: fc.array(scalarValue, { maxLength: 3 }),
    chats: fc.array(fc.integer(), { maxLength: 2 }),
  },
  { requiredKeys: ['id'] },
);
/** Rule files' data: a few rules with scalars, lists and the tricky values. */
export const documentData = fc.record({ rules: fc.array(ruleObject, { maxLength: 5 }) });
/** The ways `YAML.stringify` (and a hand) may lay such data out. */
export const styles = fc.record({
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
  comment: fc.boolean(),
  quote: fc.constantFrom<'"' | "'" | undefined>('"', "'", undefined),
});

/** `data` as `YAML.stringify` writes it in `style`, with comments after each line and wider item marks when asked. */
export function writtenInStyle(data: unknown, style: { indent: number; indentSeq: boolean; comment: boolean; quote: '"' | "'" | undefined }): string {
  const text = YAML.stringify(data, {
    lineWidth: 0,
    indent: style.indent,
    indentSeq: style.indentSeq,
    ...(style.quote ? { singleQuote: style.quote === "'" } : {}),
  });
  return style.comment ? `# rules\n${text.replace(/\n/g, '  # note\n').replace(/^(\s*)- /gm, '$1-   ')}` : text;
}
