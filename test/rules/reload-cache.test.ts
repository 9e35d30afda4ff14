// Reloads reuse the parse of unchanged files and already checked patterns: a changed file must still be
// read afresh, and problems and warnings must come out the same, at the same positions, every time. What is
// reused belongs to one loader (the watcher's): two loaders never see each other's files or patterns.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { RuleLoader } from '../../src/rules/load.js';
import { withRuleDir } from './rule-files.js';

const formatted = async (loader: RuleLoader, dir: string) => (await loader.load(dir)).problems.map((p) => p.format('').replace(/^.*?:(\d+:\d+)/, '$1'));

async function ruleSetOf(loader: RuleLoader, dir: string): Promise<RuleSet> {
  const { ruleSet, problems } = await loader.load(dir);
  if (!ruleSet) throw new Error(problems.map((p) => p.format()).join('\n'));
  return ruleSet;
}

/** The validated pattern object of a pattern rule (shared between rule sets when it was reused). */
function patternOf(ruleSet: RuleSet, id: string): unknown {
  const trigger = ruleSet.rules.find((rule) => rule.id === id)!.trigger;
  return trigger.kind === 'pattern' ? trigger.pattern : undefined;
}

describe('reloading', () => {
  it('picks up a changed file and keeps the unchanged one', async () => {
    await withRuleDir(
      {
        '10-a.yaml': 'rules:\n  - id: a\n    pattern: order (\\d+)\n    reply: "first {{match.1}}"\n',
        '20-b.yaml': 'rules:\n  - id: b\n    text: hi\n    reply: hello\n',
      },
      async (dir) => {
        const loader = new RuleLoader();
        const before = await ruleSetOf(loader, dir);
        expect(before.rules.map((r) => r.id)).toEqual(['a', 'b']);
        await writeFile(join(dir, '20-b.yaml'), 'rules:\n  - id: b2\n    text: hey\n    reply: hello\n');
        const outcome = await loader.load(dir);
        expect(outcome.reusedFiles).toBe(1);
        const after = outcome.ruleSet!;
        expect(after.rules.map((r) => [r.id, r.line, r.column])).toEqual([
          ['a', 2, 5],
          ['b2', 2, 5],
        ]);
        expect(after.rules[1]!.trigger).toEqual({ kind: 'text', text: 'hey' });
        expect(patternOf(after, 'a')).toBe(patternOf(before, 'a'));
      },
    );
  });

  it('reports the same warnings and errors at the same positions on every reload', async () => {
    const warned = "rules:\n  - id: any\n    pattern: 'o'\n    reply: x\n  - id: order\n    pattern: order\n    reply: y\n    examples: [order]\n";
    const broken = "rules:\n  - id: bad\n    pattern: '(unclosed'\n    reply: x\n";
    await withRuleDir({ 'a.yaml': warned, 'b.yaml': broken }, async (dir) => {
      const loader = new RuleLoader();
      const first = await formatted(loader, dir);
      expect(first).toEqual(["3:14: invalid pattern: missing closing ): `(unclosed` in rule 'bad'"]);
      expect(await formatted(loader, dir)).toEqual(first);
      // Warnings come once there are no errors: the unchanged file's positions must still be exact.
      await writeFile(join(dir, 'b.yaml'), "rules:\n  - id: bad\n    pattern: '(closed)'\n    reply: x\n");
      const warnings = await formatted(loader, dir);
      expect(warnings).toEqual([
        expect.stringMatching(/^8:16: warning: example "order" does not reach rule 'order': rule 'any' at .*a\.yaml:2:5 answers it first$/),
      ]);
      expect(await formatted(loader, dir)).toEqual(warnings);
    });
  });

  it('keeps what one loader reuses apart from another loader', async () => {
    const order = 'rules:\n  - id: order\n    pattern: order (\\d+)\n    reply: "order {{match.1}}"\n';
    const other = 'rules:\n  - id: ticket\n    pattern: ticket (\\d+)\n    reply: "ticket {{match.1}}"\n';
    await withRuleDir({ 'bot.yaml': order }, (orders) =>
      withRuleDir({ 'bot.yaml': other }, async (tickets) => {
        const first = new RuleLoader();
        const second = new RuleLoader();
        const before = await ruleSetOf(first, orders);
        // Another loader, even on the same files, starts from nothing and leaves the first one's cache alone.
        const outcome = await second.load(orders);
        expect(outcome.reusedFiles).toBe(0);
        expect(patternOf(outcome.ruleSet!, 'order')).not.toBe(patternOf(before, 'order'));
        await second.load(tickets);
        const reload = await first.load(orders);
        expect(reload.reusedFiles).toBe(1);
        expect(patternOf(reload.ruleSet!, 'order')).toBe(patternOf(before, 'order'));
      }),
    );
  });
});
