// How commands show paths and counts in their output, the same everywhere.
import { isAbsolute, relative, resolve } from 'node:path';

/** Relative to the working directory when the file is inside it, so paths stay short and clickable. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/** `1 file`, `2 files`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
