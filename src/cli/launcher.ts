// What `hearsay` runs from a checkout or an npm install (dist/hearsay.cjs, the package's `bin`): it runs the bundled
// CLI beside it (dist/hearsay-bundle.cjs) without Node's own loader reading it, for the reason in commonjs-file.ts.
// The single executable embeds the bundle itself and needs none of this.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FAILURE_EXIT_CODE } from '../errors/exit-codes.js';
import { runCommonJsFile } from './commonjs-file.js';

const bundle = join(__dirname, 'hearsay-bundle.cjs');
if (existsSync(bundle)) runCommonJsFile(bundle);
else {
  process.stderr.write(`hearsay: ${bundle} is missing: \`npm run build\` writes it beside ${__filename}\n`);
  process.exitCode = FAILURE_EXIT_CODE;
}
