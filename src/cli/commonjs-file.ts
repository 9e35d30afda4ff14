// Runs the bundled CLI for the launcher (launcher.ts) without Node's CommonJS loader reading it.
//
// Why: Node reads a CommonJS file into a buffer it doubles as it goes (1, 2, 4, 8 MB for the 6 MB bundle) and frees
// each smaller one. The C library's malloc takes every free of a block that large as a sign to serve blocks up to
// that size from its heap from then on, and to keep up to twice as much freed memory before giving any back: a busy
// bot held about 8 MB more at its peak (BENCHMARKS.md, "Issue 38, seventeenth pass"). Here the file is read into a
// WebAssembly memory, which V8 maps and unmaps itself, and made into a string in one copy.
import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { compileFunction } from 'node:vm';

const WASM_PAGE_BYTES = 65_536;

/** Node.js's WebAssembly.Memory (TypeScript's libraries for Node.js leave WebAssembly out); absent with --jitless. */
const WasmMemory = (globalThis as { WebAssembly?: { Memory: new (pages: { initial: number }) => { buffer: ArrayBuffer } } }).WebAssembly?.Memory;

/**
 * The text of a file read without a malloc'd buffer of its size: one byte a character when it is ASCII (the bundle
 * is: the build escapes everything else), decoded as UTF-8 otherwise.
 */
export function readTextOutsideMalloc(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const memory = wasmMemoryOf(size);
    // Without one the plain read: the same text, only malloc's thresholds raised.
    if (memory === undefined) return readFileSync(fd, 'utf8');
    const bytes = Buffer.from(memory.buffer, 0, size);
    let length = 0;
    while (length < size) {
      const read = readSync(fd, bytes, length, size - length, length);
      if (read === 0) break;
      length += read;
    }
    const text = bytes.subarray(0, length);
    return isAscii(text) ? text.toString('latin1') : text.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * A WebAssembly memory of at least `size` bytes, or undefined where there is none to have: no WebAssembly (node
 * --jitless), or too little address space for V8's reservation (a `ulimit -v` under about 10 GB).
 */
function wasmMemoryOf(size: number): { buffer: ArrayBuffer } | undefined {
  if (WasmMemory === undefined) return undefined;
  try {
    return new WasmMemory({ initial: Math.max(1, Math.ceil(size / WASM_PAGE_BYTES)) });
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Runs a CommonJS file as Node's loader would: its own module, exports, require, __filename and __dirname. */
export function runCommonJsFile(file: string): unknown {
  const body = compileFunction(readTextOutsideMalloc(file), ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  const commonJsModule = { exports: {} as unknown, filename: file, id: file, loaded: false };
  body.call(commonJsModule.exports, commonJsModule.exports, createRequire(file), commonJsModule, file, dirname(file));
  commonJsModule.loaded = true;
  return commonJsModule.exports;
}
