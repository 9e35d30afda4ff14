// The V8 settings the CLI gives itself for a smaller memory footprint, and the operator's own node options,
// which always win over them.
import { describe, expect, it } from 'vitest';
import { MEMORY_V8_FLAGS, memoryV8FlagsToApply } from '../../src/cli/memory-v8-flags.js';

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
