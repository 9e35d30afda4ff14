// Reading and writing files of text lines in bounded memory: reading goes a chunk at a time and never holds
// more than one line (and skips a line over the limit without holding it), so a file of any size can be read.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

/** Bytes read from the file at a time. */
const READ_CHUNK_BYTES = 1 << 20;

/** Writes the lines, each with its newline, in full (more than one write() if the kernel takes a part). */
export function writeAll(fd: number, lines: string[]): void {
  if (lines.length === 0) return;
  const data = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  let written = 0;
  while (written < data.length) written += writeSync(fd, data, written);
}

/** The longest line kept, in bytes: one limit for every line, or one chosen by the line's first byte (its kind). */
export type LineLimit = number | ((firstByte: number) => number);

/**
 * Streams the file's lines to `onLine` in fixed-size chunks. A line longer than its limit is skipped
 * without being held in memory; a last line without its newline is reported as torn and dropped.
 */
export function readLines(path: string, maxLineBytes: LineLimit, onLine: (line: string) => void): { torn: boolean; oversized: number } {
  const limitOf = typeof maxLineBytes === 'number' ? () => maxLineBytes : maxLineBytes;
  let limit = 0;
  const fd = openSync(path, 'r');
  const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let parts: Buffer[] = [];
  let partBytes = 0;
  let skipping = false;
  let oversized = 0;
  try {
    for (;;) {
      const count = readSync(fd, chunk, 0, chunk.length, null);
      if (count === 0) break;
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(10, start);
        const end = newline === -1 || newline >= count ? count : newline;
        if (!skipping) {
          if (partBytes === 0 && end > start) limit = limitOf(chunk[start]!);
          partBytes += end - start;
          if (partBytes > limit) {
            skipping = true;
            parts = [];
          } else if (end > start) parts.push(Buffer.from(chunk.subarray(start, end)));
        }
        if (end === count) break;
        // A complete line.
        if (skipping) oversized += 1;
        else if (partBytes > 0) onLine(Buffer.concat(parts).toString('utf8'));
        parts = [];
        partBytes = 0;
        skipping = false;
        start = end + 1;
      }
    }
  } finally {
    closeSync(fd);
  }
  return { torn: partBytes > 0, oversized };
}
