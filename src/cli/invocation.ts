// How the user started hearsay, as a command they can type again: the single executable by its path,
// `node <path>/dist/cli/main.js` from a checkout, `hearsay` when installed on the PATH.
import { basename } from 'node:path';
import { isSea } from 'node:sea';

const quoted = (path: string): string => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`);

/** The command line prefix that runs this hearsay again, e.g. `node /src/hearsay/dist/cli/main.js`. */
export function hearsayInvocation(): string {
  if (isSea()) return quoted(process.execPath);
  const script = process.argv[1];
  if (script !== undefined && basename(script) === 'main.js') return `node ${quoted(script)}`;
  return 'hearsay';
}
