// The program users run, for tests that spawn hearsay as a process: package.json's `bin`, the bundled CLI
// launcher that `npm run build` writes (dist/hearsay.cjs, beside the bundle it runs), so process-level tests
// exercise what ships.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { bin: { hearsay: string } };

/** Absolute path of the hearsay executable script (run it as `node HEARSAY_BIN ...`). */
export const HEARSAY_BIN = fileURLToPath(new URL(manifest.bin.hearsay, root));

/** Absolute path of the bundled CLI that the launcher (HEARSAY_BIN) runs, beside it in dist/. */
export const HEARSAY_BUNDLE = fileURLToPath(new URL('dist/hearsay-bundle.cjs', root));
