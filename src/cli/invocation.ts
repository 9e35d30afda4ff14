// How the user started hearsay, as a command they can type again: the single executable by its path,
// `node <path>/dist/hearsay.cjs` from a checkout, `hearsay` when installed on the PATH.
import { extname } from 'node:path';
import { isSea } from 'node:sea';

const quoted = (path: string): string => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`);

/** The command line prefix that runs this hearsay again, e.g. `node /src/hearsay/dist/hearsay.cjs`. */
export function hearsayInvocation(): string {
  if (isSea()) return quoted(process.execPath);
  const script = process.argv[1];
  // A script run by path (the bundle, or dist/cli/main.js that tsc writes); the bin on the PATH has no extension.
  if (script !== undefined && ['.cjs', '.js', '.mjs'].includes(extname(script))) return `node ${quoted(script)}`;
  return 'hearsay';
}
