// The launcher's reading and running of the bundle: the same text as Node's own read, a CommonJS module of its own,
// and (where strace can watch it) none of the doubling buffers Node's loader frees while reading a large file.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTextOutsideMalloc, runCommonJsFile } from '../../src/cli/commonjs-file.js';
import { HEARSAY_BIN, HEARSAY_BUNDLE } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'hearsay-commonjs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readTextOutsideMalloc', () => {
  it('reads what Node reads: ASCII, UTF-8, empty, and a file longer than one WebAssembly page', () => {
    const texts = { ascii: 'const a = "plain";\n', utf8: 'const street = "Straße, İstanbul 🙂";\n', empty: '', long: 'x'.repeat(200_000) + '\n' };
    for (const [name, text] of Object.entries(texts)) {
      const file = join(dir, `${name}.js`);
      writeFileSync(file, text);
      expect(readTextOutsideMalloc(file), name).toBe(readFileSync(file, 'utf8'));
    }
  });

  it('says which file it could not read', () => {
    expect(() => readTextOutsideMalloc(join(dir, 'nowhere.cjs'))).toThrow(/ENOENT.*nowhere\.cjs/);
  });
});

describe('runCommonJsFile', () => {
  it('runs a file with a #! line as a module of its own: its __filename, __dirname, exports and require from its folder', () => {
    const folder = join(dir, 'package');
    mkdirSync(folder);
    writeFileSync(join(folder, 'helper.cjs'), 'module.exports = "from the helper";\n');
    writeFileSync(
      join(folder, 'main.cjs'),
      '#!/usr/bin/env node\n"use strict";\nexports.file = __filename;\nexports.folder = __dirname;\nexports.helper = require("./helper.cjs");\nexports.self = this === module.exports;\n',
    );
    expect(runCommonJsFile(join(folder, 'main.cjs'))).toEqual({ file: join(folder, 'main.cjs'), folder, helper: 'from the helper', self: true });
  });

  it('names the file and line of an error in it', () => {
    writeFileSync(join(dir, 'failing.cjs'), '\n\nthrow new Error("broken");\n');
    try {
      runCommonJsFile(join(dir, 'failing.cjs'));
      expect.unreachable();
    } catch (error) {
      expect((error as Error).stack).toContain(`${join(dir, 'failing.cjs')}:3`);
    }
  });
});

describe('the launcher without a WebAssembly memory to read into', () => {
  it('still runs the bundle, read the plain way: no WebAssembly (node --jitless)', () => {
    const result = spawnSync(process.execPath, ['--jitless', HEARSAY_BIN, '--version'], { encoding: 'utf8' });
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(result.status).toBe(0);
  });

  it('and too little address space for one (ulimit -v 4 GB: enough for node, not for V8 to reserve a memory)', () => {
    const limited = (script: string) => spawnSync('sh', ['-c', `ulimit -v 4000000 && exec "$0" -e '${script}'`, process.execPath], { encoding: 'utf8' });
    // The premise: under this limit node runs and a WebAssembly memory cannot be had.
    expect(limited('console.log(1)').stdout).toBe('1\n');
    expect(limited('new WebAssembly.Memory({ initial: 1 })').stderr).toContain('RangeError');
    const result = spawnSync('sh', ['-c', `ulimit -v 4000000 && exec "$0" "$1" --version`, process.execPath, HEARSAY_BIN], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(result.status).toBe(0);
  });
});

/** Sizes of the memory blocks of 1 MB and more that `node ...args` gave back to the kernel before exiting (strace). */
function bigBlocksFreed(args: string[]): number[] {
  const trace = join(dir, 'trace.txt');
  execFileSync('strace', ['-f', '-e', 'trace=munmap', '-o', trace, process.execPath, ...args], { stdio: 'ignore' });
  return [...readFileSync(trace, 'utf8').matchAll(/munmap\(0x[0-9a-f]+, (\d+)\)/g)].map((match) => Number(match[1]));
}

// malloc serves a block of n bytes from the kernel as n + 4 KiB; Node's loader doubles its buffer from 64 KiB up.
const DOUBLING_BUFFERS = [1, 2, 4].map((mb) => mb * 2 ** 20 + 4096);
const hasStrace = spawnSync('strace', ['-V']).status === 0;

describe.skipIf(!hasStrace)("the bin's start (strace)", () => {
  it("frees none of the 1, 2 and 4 MB buffers that Node's loader frees when it reads the bundle itself", () => {
    expect(bigBlocksFreed([HEARSAY_BUNDLE, '--version'])).toEqual(expect.arrayContaining(DOUBLING_BUFFERS));
    expect(bigBlocksFreed([HEARSAY_BIN, '--version']).filter((size) => DOUBLING_BUFFERS.includes(size))).toEqual([]);
  });
});
