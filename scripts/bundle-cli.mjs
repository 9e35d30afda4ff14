// Bundles the hearsay CLI and its dependencies into one CommonJS file with esbuild. `npm run build` writes
// dist/hearsay-bundle.cjs: one file for Node to compile instead of hundreds of modules resolved one by one through
// its ESM loader (start-up about a third faster, BENCHMARKS.md); build-binary.mjs embeds the same bundle into the
// single executable. Beside it goes dist/hearsay.cjs, the package's `bin` and what users run: the launcher
// (src/cli/launcher.ts) that reads the bundle without Node's loader, for a smaller memory footprint.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { dropRedundantNames } from './drop-redundant-names.mjs';
import { stripIndentation } from './strip-indentation.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm run build` puts the bundle: the launcher (src/cli/launcher.ts) reads it from beside itself. */
export const CLI_BUNDLE = join(root, 'dist', 'hearsay-bundle.cjs');
/** Where `npm run build` puts the launcher; package.json's `bin` points here. */
export const CLI_LAUNCHER = join(root, 'dist', 'hearsay.cjs');

/** Writes the bundled CLI to `outfile` (default dist/hearsay-bundle.cjs), runnable as `node <outfile>` or directly. */
export async function bundleCli(outfile = CLI_BUNDLE) {
  const result = await build({
    entryPoints: [join(root, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    // CommonJS: what the single executable needs, and a module reached only through `await import()` (the
    // sandbox, Fastify for webhooks, the Redis client) stays a function that runs when first imported.
    // src/ uses no top-level await and no import.meta for this.
    format: 'cjs',
    target: 'node20',
    outfile,
    write: false,
    // Not minified: measured no faster to start (V8 pre-parses by tokens, not bytes), and an unexpected
    // failure's stack trace stays readable without a source map (each module is marked by its src/ path). Only
    // the indentation goes (stripIndentation below), which keeps every line where it was.
    minify: false,
    // esbuild renames identifiers that clash across modules (CommanderError2, Pool2, ... in the dependencies)
    // and libraries read `constructor.name` (pino's `type` of a logged error, commander's error names): keep
    // the real names. The `__name()` calls this adds where nothing was renamed are removed again below: run for
    // every closure made per update they cost 8–10 µs per update polling, 15–20 µs webhook (BENCHMARKS.md).
    keepNames: true,
    plugins: [shortNamesInGeneratedValidators],
    logLevel: 'warning',
  });
  const [output] = result.outputFiles;
  writeFileSync(outfile, asciiOnly(stripIndentation(dropRedundantNames(output.text, outfile).code, outfile)), { mode: 0o755 });
  // The file starts with main.ts's `#!/usr/bin/env node`, so a checkout can run it directly too.
  chmodSync(outfile, 0o755);
  return outfile;
}

/**
 * Ajv's generated validators (src/generated/*-validator.ts) with short local names and esbuild's shorter syntax:
 * about 0.3 MB of the bundle's source, which V8 keeps in memory for as long as the process runs (BENCHMARKS.md,
 * "Issue 38, eighteenth pass"). Nobody reads their stack frames, and no name in them is looked at by name.
 */
const shortNamesInGeneratedValidators = {
  name: 'short-names-in-generated-validators',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]src[\\/]generated[\\/][\w-]+-validator\.ts$/ }, async (args) => {
      const minified = await transform(readFileSync(args.path, 'utf8'), {
        loader: 'ts',
        format: 'esm',
        target: 'node20',
        minifyIdentifiers: true,
        minifySyntax: true,
      });
      return { contents: minified.code, loader: 'js' };
    });
  },
};

/**
 * The bundle with every non-ASCII character written as a `\uXXXX` escape. V8 keeps a script's source in memory
 * for as long as the process runs (it compiles functions lazily from it), and one non-ASCII character anywhere
 * makes it store all ~8 MB of the bundle two bytes per character: ~8 MB more heap (BENCHMARKS.md, "Memory").
 * esbuild already writes strings and template literals ASCII-only (its default charset); what is left is in
 * comments and regular expressions, where the escape means the same character.
 */
export function asciiOnly(code) {
  return code.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Writes the launcher to dist/hearsay.cjs, runnable as `node dist/hearsay.cjs` or directly. */
export async function bundleLauncher(outfile = CLI_LAUNCHER) {
  await build({
    entryPoints: [join(root, 'src/cli/launcher.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o755);
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleCli();
  await bundleLauncher();
}
