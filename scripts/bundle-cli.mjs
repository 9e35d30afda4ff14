// Bundles the hearsay CLI and its dependencies into one CommonJS file with esbuild. `npm run build` writes
// dist/hearsay.cjs, the package's `bin` and what users run: one file for Node to compile instead of hundreds of
// modules resolved one by one through its ESM loader (start-up ~30% faster, see BENCHMARKS.md); build-binary.mjs
// embeds the same bundle into the single executable.
import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm run build` puts the bundle; package.json's `bin` points here. */
export const CLI_BUNDLE = join(root, 'dist', 'hearsay.cjs');

/** Writes the bundled CLI to `outfile` (default dist/hearsay.cjs), runnable as `node <outfile>` or directly. */
export async function bundleCli(outfile = CLI_BUNDLE) {
  await build({
    entryPoints: [join(root, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    // CommonJS: what the single executable needs, and a module reached only through `await import()` (the
    // sandbox, Fastify for webhooks, the Redis client) stays a function that runs when first imported.
    // src/ uses no top-level await and no import.meta for this.
    format: 'cjs',
    target: 'node20',
    outfile,
    // Not minified: measured no faster to start (V8 pre-parses by tokens, not bytes), and an unexpected
    // failure's stack trace stays readable without a source map (each module is marked by its src/ path).
    minify: false,
    // No keepNames: it wraps every function and class, closures included, in a `__name()` call that
    // redefines its `.name` each time one is created; on the per-update path that cost 8–10 µs per update
    // polling and 15–20 µs webhook (BENCHMARKS.md). esbuild renames only names that clash across modules,
    // and none of ours does (the error classes' names, which logs show, come through unchanged).
    keepNames: false,
    logLevel: 'warning',
  });
  // The file starts with main.ts's `#!/usr/bin/env node`, so a checkout can run it directly too.
  chmodSync(outfile, 0o755);
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli();
