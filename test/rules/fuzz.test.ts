// Property: random and mutated YAML never makes the loader throw past its error reporting, and every
// problem it reports for a file has a real position in that file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRules } from '../../src/rules/load.js';

const seed = `rules:
  - id: start
    command: start
    reply: "Hi {{user.first_name}}"
  - id: order
    pattern: 'order (?<num>\\d+)'
    reply: ["Order {{match.num}}", "{{match.1}}"]
    chat_types: [private]
  - id: kw
    keywords: [refund, "money back"]
    examples: ["refund"]
    reply: x
  - id: fb
    fallback: true
    reply: y
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-fuzz-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const pieces = fc.constantFrom(
  'rules:',
  '- ',
  'id: ',
  'text: ',
  'reply: ',
  '{{',
  '}}',
  '[',
  ']',
  '{',
  '}',
  ':',
  '"',
  "'",
  '\n',
  '  ',
  '&a',
  '*a',
  '!!js',
  'pattern: (',
  'command: /x',
  'fallback: true',
  'keywords: []',
  '~',
  '\t',
  '#',
  '|',
  '>',
  '0x',
  'null',
);
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(pieces, fc.string({ maxLength: 6 })) }),
);

function mutate(text: string, mutations: { kind: 'delete' | 'insert'; at: number; length?: number; text?: string }[]): string {
  let out = text;
  for (const m of mutations) {
    const at = m.at % (out.length + 1);
    out = m.kind === 'delete' ? out.slice(0, at) + out.slice(at + (m.length ?? 1)) : out.slice(0, at) + (m.text ?? '') + out.slice(at);
  }
  return out;
}

describe('loader robustness', () => {
  it('mutated and random YAML only ever yields positioned problems', async () => {
    const file = join(dir, 'bot.yaml');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(mutation, { minLength: 1, maxLength: 6 }).map((ms) => mutate(seed, ms)),
          fc.array(pieces, { maxLength: 30 }).map((p) => p.join('')),
          fc.string(),
        ),
        async (text) => {
          await writeFile(file, text);
          const { problems } = await checkRules(dir);
          const lines = text.split(/\r\n|\r|\n/).length;
          for (const p of problems) {
            expect(p.file).toBe(file);
            expect(p.line, p.format()).toBeGreaterThanOrEqual(1);
            expect(p.line, p.format()).toBeLessThanOrEqual(lines + 1);
            expect(p.column, p.format()).toBeGreaterThanOrEqual(1);
            expect(p.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 250 },
    );
  });
});
