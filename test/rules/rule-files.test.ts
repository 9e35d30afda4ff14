// Nothing named like a rule file is silently skipped: a dangling symlink, a symlink loop and text that is
// not UTF-8 are reported problems (the load fails, the last good rules stay). The limits on file size and
// rule count are checked before the costly steps, and a symlink-loop rules path is named as such.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkRules, loadRules } from '../../src/rules/load.js';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;
const good = 'rules:\n  - id: a\n    text: ping\n    reply: pong\n';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-files-'));
  await writeFile(join(dir, 'a.yaml'), good);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const messages = async (limits?: { maxFileBytes: number; maxRules: number }) =>
  (await checkRules(dir, limits)).problems.map((p) => p.format(p.file.replace(`${dir}/`, '')));

describe('rule files that cannot be used are problems', () => {
  it('a dangling symlink', async () => {
    await symlink(join(dir, 'gone.yaml'), join(dir, 'b.yaml'));
    expect(await messages()).toEqual(['b.yaml: cannot read the file: dangling symlink (its target does not exist)']);
    expect((await loadRules(dir)).ruleSet).toBeUndefined();
  });

  it('a symlink loop', async () => {
    await symlink(join(dir, 'c.yaml'), join(dir, 'b.yaml'));
    await symlink(join(dir, 'b.yaml'), join(dir, 'c.yaml'));
    expect(await messages()).toEqual([
      'b.yaml: cannot read the file: symlink loop (too many levels of symbolic links)',
      'c.yaml: cannot read the file: symlink loop (too many levels of symbolic links)',
    ]);
  });

  it('text that is not UTF-8, at its line', async () => {
    await writeFile(
      join(dir, 'b.yaml'),
      Buffer.concat([Buffer.from('rules:\n  - id: b\n    text: caf'), Buffer.from([0xe9]), Buffer.from('\n    reply: x\n')]),
    );
    expect(await messages()).toEqual(['b.yaml:3:1: not UTF-8 text; save the file as UTF-8']);
  });

  it('a file over the size limit is refused before it is read, and too many rules before they are compiled', async () => {
    await writeFile(join(dir, 'big.yaml'), `${good.replace('id: a', 'id: big')}# ${'x'.repeat(5000)}\n`);
    expect(await messages({ maxFileBytes: 4096, maxRules: 100 })).toEqual([
      expect.stringMatching(/^big\.yaml: the file is 50\d\d bytes, over the limit of 4096 \(rule_limits\.max_file_bytes\)$/),
    ]);
    const many = `rules:\n${Array.from({ length: 30 }, (_, i) => `  - id: r${i}\n    text: t${i}\n    reply: x\n`).join('')}`;
    await rm(join(dir, 'big.yaml'));
    await writeFile(join(dir, 'many.yaml'), many);
    expect(await messages({ maxFileBytes: 1 << 20, maxRules: 20 })).toEqual([
      'many.yaml: more than 20 rules in all (rule_limits.max_rules); this file and the ones after it were not checked',
    ]);
    expect((await loadRules(dir, { maxFileBytes: 1 << 20, maxRules: 31 })).ruleSet?.rules).toHaveLength(31);
  });

  it('hearsay check names a symlink loop as a loop, not as a missing path', async () => {
    await symlink(join(dir, 'loop-b'), join(dir, 'loop-a'));
    await symlink(join(dir, 'loop-a'), join(dir, 'loop-b'));
    const result = spawnSync(process.execPath, [cli, 'check', join(dir, 'loop-a')], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('symlink loop (too many levels of symbolic links)');
    expect((await checkRules(join(dir, 'loop-a'))).problems.map((p) => p.message)).toEqual([
      'cannot read the rules: symlink loop (too many levels of symbolic links)',
    ]);
  });
});
