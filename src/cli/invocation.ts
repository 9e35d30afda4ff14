// How the user started hearsay, as a command they can type again: the single executable by its path,
// `node <path>/dist/hearsay.cjs` from a checkout, `hearsay` when installed on the PATH. Paths are given
// relative to the folder the command will be typed in when they are near it (`node dist/hearsay.cjs`,
// `node ../dist/hearsay.cjs` after a `cd`), so a hint copied from a page or a README works on any machine.
import { delimiter, dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { isSea } from 'node:sea';

const quoted = (path: string): string => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`);

/** At most this many `..` steps make a relative path; farther away, the absolute path is clearer. */
const NEAR_STEPS = 2;

/** `path` as typed in `dir`: relative when near (`dist/x`, `../dist/x`, `./hearsay`), else absolute. */
export function nearPath(path: string, dir: string): string {
  const shown = relative(dir, path);
  const steps = shown.split(sep).filter((part) => part === '..').length;
  if (shown === '' || isAbsolute(shown) || steps > NEAR_STEPS) return path;
  return shown.startsWith('..') || shown.includes(sep) ? shown : `.${sep}${shown}`;
}

/**
 * The command line prefix that runs this hearsay again when typed in `dir` (default: the working directory),
 * e.g. `node dist/hearsay.cjs`, `node ../dist/hearsay.cjs`, `./hearsay` or `hearsay`.
 */
export function hearsayInvocation(dir: string = process.cwd()): string {
  if (isSea()) {
    const folders = (process.env.PATH ?? '').split(delimiter).filter((folder) => folder !== '');
    if (folders.some((folder) => resolve(folder) === dirname(process.execPath))) return 'hearsay';
    return quoted(nearPath(process.execPath, dir));
  }
  const script = process.argv[1];
  // A script run by path (the bundle, or dist/cli/main.js that tsc writes); the bin on the PATH has no extension.
  if (script !== undefined && ['.cjs', '.js', '.mjs'].includes(extname(script))) return `node ${quoted(nearPath(resolve(script), dir))}`;
  return 'hearsay';
}

/** The same, typed in `folder` below the working directory (after `cd folder`); without a folder, in the working directory. */
export function hearsayInvocationIn(folder?: string): string {
  return hearsayInvocation(folder === undefined ? process.cwd() : resolve(process.cwd(), folder));
}
