// Reloads reuse the parse of unchanged files and already checked patterns: a changed file must still be
// read afresh, and problems and warnings must come out the same, at the same positions, every time.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRules, loadRuleSet } from '../../src/rules/load.js';
import { withRuleDir } from './rule-files.js';

const formatted = async (dir: string) => (await checkRules(dir)).problems.map((p) => p.format('').replace(/^.*?:(\d+:\d+)/, '$1'));

describe('reloading', () => {
  it('picks up a changed file and keeps the unchanged one', async () => {
    await withRuleDir(
      {
        '10-a.yaml': 'rules:\n  - id: a\n    pattern: order (\\d+)\n    reply: "first {{match.1}}"\n',
        '20-b.yaml': 'rules:\n  - id: b\n    text: hi\n    reply: hello\n',
      },
      async (dir) => {
        const before = await loadRuleSet(dir);
        expect(before.rules.map((r) => r.id)).toEqual(['a', 'b']);
        await writeFile(join(dir, '20-b.yaml'), 'rules:\n  - id: b2\n    text: hey\n    reply: hello\n');
        const after = await loadRuleSet(dir);
        expect(after.rules.map((r) => [r.id, r.line, r.column])).toEqual([
          ['a', 2, 5],
          ['b2', 2, 5],
        ]);
        expect(after.rules[1]!.trigger).toEqual({ kind: 'text', text: 'hey' });
      },
    );
  });

  it('reports the same warnings and errors at the same positions on every reload', async () => {
    const warned = "rules:\n  - id: any\n    pattern: 'o'\n    reply: x\n  - id: order\n    pattern: order\n    reply: y\n    examples: [order]\n";
    const broken = "rules:\n  - id: bad\n    pattern: '(unclosed'\n    reply: x\n";
    await withRuleDir({ 'a.yaml': warned, 'b.yaml': broken }, async (dir) => {
      const first = await formatted(dir);
      expect(first).toEqual(["3:14: invalid pattern: missing closing ): `(unclosed` in rule 'bad'"]);
      expect(await formatted(dir)).toEqual(first);
      // Warnings come once there are no errors: the unchanged file's positions must still be exact.
      await writeFile(join(dir, 'b.yaml'), "rules:\n  - id: bad\n    pattern: '(closed)'\n    reply: x\n");
      const warnings = await formatted(dir);
      expect(warnings).toEqual([
        expect.stringMatching(/^8:16: warning: example "order" does not reach rule 'order': rule 'any' at .*a\.yaml:2:5 answers it first$/),
      ]);
      expect(await formatted(dir)).toEqual(warnings);
    });
  });
});
