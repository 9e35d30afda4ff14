// `hearsay init` refusing a folder it cannot fill: every path it would write is looked at without following
// links (a dangling link counts as taken), the refusal names the path and exits 1, and nothing is written:
// not before the refusal, and not when a write fails halfway (what was written is taken back).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEARSAY_BIN } from '../support/cli.js';

const FILES = [
  'rules/10-start.yaml',
  'tests/10-start.yaml',
  'hearsay.yaml',
  'schemas/rules.schema.json',
  'schemas/tests.schema.json',
  'package.json',
  'vendor/README.md',
  '.github/workflows/bot.yml',
  'Dockerfile',
  '.dockerignore',
  '.gitignore',
  'README.md',
];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearsay-init-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const init = (...args: string[]) => spawnSync(process.execPath, [HEARSAY_BIN, 'init', ...args], { cwd: dir, encoding: 'utf8' });

/** Every path under `folder`, relative, folders with a trailing slash. */
function tree(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1) + (entry.isDirectory() ? '/' : ''))
    .sort();
}

describe('hearsay init refuses, writing nothing', () => {
  it.each(FILES)('when %s is a dangling symbolic link, and names the link', (file) => {
    const bot = join(dir, 'bot');
    mkdirSync(join(bot, file, '..'), { recursive: true });
    symlinkSync('gone.yaml', join(bot, file));
    const before = tree(bot);

    const result = init('bot');
    expect(result.stderr).toBe(
      `hearsay init: bot/${file} is a symbolic link to gone.yaml, which does not exist; nothing was written (choose another folder)\n`,
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(tree(bot)).toEqual(before);
  });

  it('when a file is a link to an existing file, leaving the file it leads to as it was', () => {
    writeFileSync(join(dir, 'mine.yaml'), 'mine: true\n');
    symlinkSync('mine.yaml', join(dir, 'hearsay.yaml'));
    const result = init();
    expect(result.stderr).toBe('hearsay init: hearsay.yaml is a symbolic link to mine.yaml; nothing was written (choose another folder)\n');
    expect(result.status).toBe(1);
    expect(tree(dir)).toEqual(['hearsay.yaml', 'mine.yaml']);
    expect(readFileSync(join(dir, 'mine.yaml'), 'utf8')).toBe('mine: true\n');
  });

  it('when a folder it needs is a dangling link or a file, or the project folder is a dangling link', () => {
    symlinkSync('elsewhere', join(dir, 'rules'));
    writeFileSync(join(dir, 'tests'), 'not a folder\n');
    const inside = init();
    expect(inside.stderr).toBe(
      'hearsay init: rules is a symbolic link to elsewhere, which does not exist, not a folder; tests exists and is not a folder; nothing was written (choose another folder)\n',
    );
    expect(inside.status).toBe(1);
    expect(tree(dir)).toEqual(['rules', 'tests']);

    symlinkSync('nowhere', join(dir, 'bot'));
    const project = init('bot');
    expect(project.stderr).toBe(
      'hearsay init: bot is a symbolic link to nowhere, which does not exist, not a folder; nothing was written (choose another folder)\n',
    );
    expect(project.status).toBe(1);
    expect(tree(dir)).toEqual(['bot', 'rules', 'tests']);
  });

  it('lists files that exist and links together, and still writes through a link to a folder', () => {
    mkdirSync(join(dir, 'shared-rules'));
    symlinkSync('shared-rules', join(dir, 'rules'));
    writeFileSync(join(dir, 'README.md'), '# mine\n');
    symlinkSync('gone', join(dir, '.gitignore'));
    const refused = init();
    expect(refused.stderr).toBe(
      'hearsay init: README.md already exists; .gitignore is a symbolic link to gone, which does not exist; nothing was written (choose another folder)\n',
    );
    expect(tree(dir)).toEqual(['.gitignore', 'README.md', 'rules', 'shared-rules/']);

    rmSync(join(dir, 'README.md'));
    rmSync(join(dir, '.gitignore'));
    expect(init().status).toBe(0);
    expect(tree(join(dir, 'shared-rules'))).toEqual(['10-start.yaml']);
  });

  it.runIf(process.platform === 'linux')('takes back what it wrote when a write fails halfway', () => {
    // schemas/ leads to a folder no one may create files in (not even root): rules/, tests/ and hearsay.yaml
    // are written first, then the first schema fails.
    mkdirSync(join(dir, 'bot'));
    symlinkSync('/proc', join(dir, 'bot', 'schemas'));
    const result = init('bot');
    expect(result.stderr).toMatch(/^hearsay init: cannot write into bot: .*schemas\/rules\.schema\.json.*; nothing was written\n$/);
    expect(result.status).toBe(1);
    expect(tree(dir)).toEqual(['bot/', 'bot/schemas']);
  });
});
