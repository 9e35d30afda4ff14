// The V8 settings hearsay gives itself at start for a smaller memory footprint. Node.js sizes the heap before any
// code runs, so only settings V8 reads where it uses them can be changed from inside: two flags, and a cap on the
// young generation, kept by turning its growth off once it reaches the cap (V8 reads the growth factor each time).
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

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

/**
 * The young generation's cap: 8 MB (two halves of 4 MB, what node's `--max-semi-space-size=4` allows), where V8
 * lets a busy process's grow to 32 MB; that head-room was most of what a busy bot's peak held over an idle one's.
 * Measured in BENCHMARKS.md ("Issue 38, seventh pass"): 18–21 MB less at a 50-rule bot's peak, for about 5% more CPU
 * per update at the file store's highest load and 0–5% on a polling Redis replica ("eighth pass"; nothing
 * measurable at 4,000 a second; a webhook replica goes without it: {@link liftYoungGenerationCap}); keeping it at
 * its starting size (growth off from the start) cost 15–25%, a 16 MB cap 10–20% at 10,000 rules.
 */
export const YOUNG_GENERATION_CAP_BYTES = 8 * 2 ** 20;

/** The node settings that size the young generation: an operator who gave any keeps V8's own growth. */
const YOUNG_GENERATION_FLAGS: readonly string[] = ['max-semi-space-size', 'min-semi-space-size', 'semi-space-growth-factor', 'max-heap-size'];

/** V8's own growth factor for the young generation (each growth doubles it, up to its maximum). */
const DEFAULT_GROWTH_FACTOR = 2;

/** `--heap_growing_percent=50` → `heap-growing-percent`, `--no-liftoff-only` → `liftoff-only`. */
function flagName(arg: string): string {
  return arg
    .replace(/^--(no-?)?/, '')
    .replace(/=.*$/, '')
    .replace(/_/g, '-');
}

/** The names of the settings the operator gave node, in its own arguments or in NODE_OPTIONS. */
function operatorFlags(execArgv: readonly string[], nodeOptions: string): Set<string> {
  return new Set([...execArgv, ...nodeOptions.split(/\s+/)].filter((arg) => arg.startsWith('--')).map(flagName));
}

/**
 * The settings to apply: those the operator did not set (either way) in node's own arguments or in NODE_OPTIONS,
 * which always win.
 */
export function memoryV8FlagsToApply(execArgv: readonly string[], nodeOptions: string): string[] {
  const given = operatorFlags(execArgv, nodeOptions);
  return MEMORY_V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/** True when hearsay caps the young generation: the operator gave node no setting that sizes it. */
export function capsYoungGeneration(execArgv: readonly string[], nodeOptions: string): boolean {
  const given = operatorFlags(execArgv, nodeOptions);
  return !YOUNG_GENERATION_FLAGS.some((name) => given.has(name));
}

/** The young generation's size now (both halves), in bytes. */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Keeps the young generation at `capBytes` or below: after each garbage collection its growth is turned off once it
 * has reached the cap, and on again when V8 has shrunk it below (as it does in an idle process), so a busy spell
 * regrows it up to the cap. A growth can outrun the check by one step (two collections before the check runs).
 * Returns a function that stops keeping it.
 */
export function capYoungGeneration(capBytes = YOUNG_GENERATION_CAP_BYTES): () => void {
  let growing = true;
  const observer = new PerformanceObserver(() => {
    const mayGrow = youngGenerationBytes() < capBytes;
    if (mayGrow === growing) return;
    growing = mayGrow;
    setFlagsFromString(`--semi-space-growth-factor=${mayGrow ? DEFAULT_GROWTH_FACTOR : 1}`);
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    if (!growing) setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
  };
}

/** Stops the cap {@link applyMemoryV8Flags} set; undefined while none is kept. */
let stopCapping: (() => void) | undefined;

/**
 * Applies the settings the operator left to hearsay, and caps the young generation unless the operator sized it;
 * returns the flags applied. Call before the first request is made.
 */
export function applyMemoryV8Flags(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const flags = memoryV8FlagsToApply(execArgv, nodeOptions);
  if (flags.length > 0) setFlagsFromString(flags.join(' '));
  if (capsYoungGeneration(execArgv, nodeOptions)) stopCapping ??= capYoungGeneration();
  return flags;
}

/**
 * Gives V8 back its own young generation (up to 32 MB) where {@link applyMemoryV8Flags} capped it: for a webhook
 * replica on the Redis store, whose updates wait for the store's answer with their HTTP request open, so more of
 * what each one allocates is still in use when the capped young generation is collected. Measured in
 * BENCHMARKS.md ("Issue 38, thirteenth pass"): 5–8% less CPU per update at its highest load (none at 1,000 a
 * second), for about 23 MB more at its peak; polling replicas showed no difference that repeated. True when there
 * was a cap to lift.
 */
export function liftYoungGenerationCap(): boolean {
  if (!stopCapping) return false;
  stopCapping();
  stopCapping = undefined;
  return true;
}
