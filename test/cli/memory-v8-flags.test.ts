// The V8 settings the CLI gives itself for a smaller memory footprint, and the operator's own node options,
// which always win over them.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MEMORY_V8_FLAGS, YOUNG_GENERATION_CAP_BYTES, capsYoungGeneration, memoryV8FlagsToApply } from '../../src/cli/memory-v8-flags.js';

describe('memoryV8FlagsToApply', () => {
  it('applies both settings when the operator set neither', () => {
    expect(memoryV8FlagsToApply([], '')).toEqual(['--heap-growing-percent=50', '--liftoff-only']);
    expect(memoryV8FlagsToApply(['--enable-source-maps'], '--max-semi-space-size=2')).toEqual([...MEMORY_V8_FLAGS]);
  });

  it("leaves a setting the operator gave node, in either spelling and either way, to the operator's value", () => {
    expect(memoryV8FlagsToApply(['--no-liftoff-only'], '')).toEqual(['--heap-growing-percent=50']);
    expect(memoryV8FlagsToApply([], '--heap_growing_percent=100')).toEqual(['--liftoff-only']);
    expect(memoryV8FlagsToApply(['--liftoff_only'], ' --heap-growing-percent=20  ')).toEqual([]);
  });

  it('does not take a value or a longer name for a setting', () => {
    expect(memoryV8FlagsToApply(['--liftoff-only-for-tests', 'liftoff-only'], 'heap-growing-percent=1')).toEqual([...MEMORY_V8_FLAGS]);
  });
});

describe('capsYoungGeneration', () => {
  it('caps it unless the operator gave node a setting that sizes it', () => {
    expect(capsYoungGeneration([], '')).toBe(true);
    expect(capsYoungGeneration(['--max-old-space-size=512'], '--liftoff-only')).toBe(true);
    expect(capsYoungGeneration([], '--max-semi-space-size=4')).toBe(false);
    expect(capsYoungGeneration(['--min_semi_space_size=2'], '')).toBe(false);
    expect(capsYoungGeneration(['--semi-space-growth-factor=4'], '')).toBe(false);
    expect(capsYoungGeneration([], ' --max-heap-size=512 ')).toBe(false);
  });
});

/** The module as `npm run build` compiles it (the suite builds first), for a node process of its own. */
const BUILT_MODULE = fileURLToPath(new URL('../../dist/cli/memory-v8-flags.js', import.meta.url));

/**
 * The young generation's size (bytes) after a busy spell in a fresh node process, as hearsay's start leaves it
 * (`cap`), with no cap (`none`), or capped and then lifted halfway through (`lift`, a Redis webhook replica):
 * short-lived garbage with some survivors, as a bot handling updates makes, in turns of the event loop.
 */
function youngGenerationAfterLoad(mode: 'cap' | 'none' | 'lift'): number {
  const script = `
    const { applyMemoryV8Flags, liftYoungGenerationCap, youngGenerationBytes } = await import(process.argv[1]);
    const mode = process.argv[2];
    if (mode !== 'none') applyMemoryV8Flags([], '');
    let kept = [];
    for (let turn = 0; turn < 90; turn++) {
      if (turn === 30 && mode === 'lift' && !liftYoungGenerationCap()) throw new Error('no cap to lift');
      for (let i = 0; i < 50000; i++) { const o = { i, text: 'x' + i, pair: [i, i + 1] }; if (i % 100 === 0) kept.push(o); }
      if (kept.length > 5000) kept = kept.slice(2500);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const size = youngGenerationBytes();
    if (mode === 'lift' && liftYoungGenerationCap()) throw new Error('a cap lifted twice');
    process.stdout.write(String(size));`;
  const args = ['--input-type=module', '-e', script, BUILT_MODULE, mode];
  return Number(execFileSync(process.execPath, args, { encoding: 'utf8' }));
}

describe('the young generation, in this Node.js', () => {
  it('is kept at the cap under load, where it grows to 16 MB or more without it', () => {
    expect(youngGenerationAfterLoad('none')).toBeGreaterThanOrEqual(2 * YOUNG_GENERATION_CAP_BYTES);
    const capped = youngGenerationAfterLoad('cap');
    expect(capped).toBeGreaterThanOrEqual(YOUNG_GENERATION_CAP_BYTES / 2);
    expect(capped).toBeLessThanOrEqual(YOUNG_GENERATION_CAP_BYTES);
  });

  it('grows past the cap again once the cap is lifted (a webhook replica on the Redis store)', () => {
    expect(youngGenerationAfterLoad('lift')).toBeGreaterThanOrEqual(2 * YOUNG_GENERATION_CAP_BYTES);
  });
});
