// The V8 settings hearsay gives itself at start for a smaller memory footprint. Node.js sizes the heap before any
// code runs, so only settings V8 reads where it uses them can be changed from inside; these two are such.
import { setFlagsFromString } from 'node:v8';

/**
 * The settings, each measured in BENCHMARKS.md ("Memory: two V8 settings from inside"):
 * - `--heap-growing-percent=50`: after each full collection V8 lets the old generation grow to 1.5× what
 *   survived, where by default it lets it reach up to 4× in a busy process: the garbage of a busy bot's
 *   medium-lived objects (a chat's state, a reply in flight) is collected before it builds up.
 * - `--liftoff-only`: the Bot API client's HTTP parser is WebAssembly; V8 otherwise compiles it a second time with
 *   its optimising tier once it is hot, a ~35 MB spike in the first seconds, for no gain measurable per update.
 * (`--optimize-for-size` cut as much memory but cost 77–97 µs of CPU per update in polling against 66–74; not used.)
 */
export const MEMORY_V8_FLAGS: readonly string[] = ['--heap-growing-percent=50', '--liftoff-only'];

/** `--heap_growing_percent=50` → `heap-growing-percent`, `--no-liftoff-only` → `liftoff-only`. */
function flagName(arg: string): string {
  return arg
    .replace(/^--(no-?)?/, '')
    .replace(/=.*$/, '')
    .replace(/_/g, '-');
}

/**
 * The settings to apply: those the operator did not set (either way) in node's own arguments or in NODE_OPTIONS,
 * which always win.
 */
export function memoryV8FlagsToApply(execArgv: readonly string[], nodeOptions: string): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].filter((arg) => arg.startsWith('--')).map(flagName));
  return MEMORY_V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/** Applies the settings the operator left to hearsay; returns them. Call before the first request is made. */
export function applyMemoryV8Flags(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const flags = memoryV8FlagsToApply(execArgv, nodeOptions);
  if (flags.length > 0) setFlagsFromString(flags.join(' '));
  return flags;
}
