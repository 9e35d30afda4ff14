// The package's `bin` is the launcher that `npm run build` writes beside the bundled CLI: it exists, runs by itself
// through its `#!/usr/bin/env node` line (as npm's link on the PATH runs it), and the two need nothing from
// node_modules: copied alone they check, test and run the demo with pretty logs and the chat page. The bundle also
// runs alone (it is what the single executable embeds).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { HEARSAY_BIN, HEARSAY_BUNDLE as BUNDLE } from '../support/cli.js';
import { tokenFreeEnv } from '../start/start-process.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; scripts: Record<string, string> };
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** An empty folder with a copy of each of `files` (paths), by their own names; returns the folder. */
function folderWith(...files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearsay-bin-'));
  dirs.push(dir);
  for (const file of files) copyFileSync(file, join(dir, basename(file)));
  return dir;
}

/** A rule file answering /start and a conversation test of it, in `dir`. */
function writeHiBot(dir: string): void {
  mkdirSync(join(dir, 'rules'));
  mkdirSync(join(dir, 'tests'));
  writeFileSync(join(dir, 'rules', 'bot.yaml'), 'rules:\n  - id: hi\n    command: start\n    reply: "Hi {{user.first_name}}"\n');
  writeFileSync(join(dir, 'tests', 'bot.yaml'), 'tests:\n  - name: hi\n    steps:\n      - say: /start\n        expect: "Hi Ann"\n');
}

describe('the bin', () => {
  it('is the launcher, run as an executable: --version and --help', () => {
    expect(HEARSAY_BIN).toMatch(/dist\/hearsay\.cjs$/);
    accessSync(HEARSAY_BIN, constants.X_OK);
    expect(execFileSync(HEARSAY_BIN, ['--version'], { encoding: 'utf8' }).trim()).toBe(pkg.version);
    const help = spawnSync(HEARSAY_BIN, ['--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const command of ['run', 'check', 'test', 'sandbox', 'start', 'init']) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it.each([
    ['the launcher with the bundle', 'hearsay.cjs', [HEARSAY_BIN, BUNDLE]],
    ['the bundle', 'hearsay-bundle.cjs', [BUNDLE]],
  ])('needs no node_modules: %s, copied alone into an empty folder, checks rules and runs conversation tests', (_, run, files) => {
    const dir = folderWith(...files);
    writeHiBot(dir);
    const check = spawnSync(process.execPath, [join(dir, run), 'check', 'rules'], { cwd: dir, encoding: 'utf8' });
    expect(check.stdout).toContain('1 file, 1 rule, 0 problems');
    expect(check.status).toBe(0);
    const test = spawnSync(process.execPath, [join(dir, run), 'test'], { cwd: dir, encoding: 'utf8' });
    expect(test.stdout).toContain('1 file, 1 test, 1 step, 0 failed');
    expect(test.status).toBe(0);
  });

  it('says which file is missing when the launcher is copied without the bundle, and exits 1', () => {
    const dir = folderWith(HEARSAY_BIN);
    const result = spawnSync(process.execPath, [join(dir, 'hearsay.cjs'), '--version'], { cwd: dir, encoding: 'utf8' });
    expect(result.stderr).toBe(`hearsay: ${join(dir, 'hearsay-bundle.cjs')} is missing: \`npm run build\` writes it beside ${join(dir, 'hearsay.cjs')}\n`);
    expect(result.status).toBe(1);
  });

  it('is ASCII only (V8 keeps its source in memory, at two bytes a character otherwise), and its escaped patterns still match', () => {
    expect(readFileSync(BUNDLE, 'latin1')).not.toMatch(/[\u0080-\uffff]/);
    const dir = mkdtempSync(join(tmpdir(), 'hearsay-bin-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'rules'));
    mkdirSync(join(dir, 'tests'));
    // Case folding turns ß into ss and İ into i with patterns written non-ASCII in the source.
    writeFileSync(
      join(dir, 'rules', 'bot.yaml'),
      'rules:\n  - id: street\n    keywords: [straße]\n    reply: "Straße!"\n  - id: city\n    keywords: [istanbul]\n    reply: "İstanbul!"\n',
    );
    writeFileSync(
      join(dir, 'tests', 'bot.yaml'),
      'tests:\n  - name: folds\n    steps:\n      - say: Welche STRASSE?\n        expect: "Straße!"\n      - say: İSTANBUL\n        expect: "İstanbul!"\n',
    );
    const test = spawnSync(process.execPath, [HEARSAY_BIN, 'test'], { cwd: dir, encoding: 'utf8' });
    expect(test.stdout).toContain('1 file, 1 test, 2 steps, 0 failed');
    expect(test.status).toBe(0);
  });

  it('runs the demo alone: pino-pretty logs and the chat page come from the bundle', async () => {
    const dir = folderWith(HEARSAY_BIN, BUNDLE);
    const bin = join(dir, 'hearsay.cjs');
    const child = spawn(process.execPath, [bin, 'start', '--port', '0', '--log-format', 'pretty', '--polling-timeout', '1'], {
      cwd: dir,
      env: tokenFreeEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const plain = () => stripVTControlCharacters(output);
      const deadline = Date.now() + 15_000;
      // Ready once it says where to open the page (after the demo's groups are made; a signal before that ends it at once).
      while (!/INFO: Open http/.test(plain()) && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const sandbox = /INFO \(sandbox\): Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(plain())?.[1];
      expect(sandbox, plain()).toBeDefined();
      expect(plain()).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: rules loaded\n {4}rules: \d+/m);
      const page = await fetch(`${sandbox}/`);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('<script');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 30_000);

  it('is what npm start runs', () => {
    expect(pkg.scripts.start).toBe('node dist/hearsay.cjs start');
  });
});
