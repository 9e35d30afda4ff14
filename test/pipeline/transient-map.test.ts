import { describe, expect, it } from 'vitest';
import { TransientMap } from '../../src/pipeline/transient-map.js';

describe('TransientMap', () => {
  it('keeps, replaces and removes entries as a Map does', () => {
    const map = new TransientMap<number, { name: string }>();
    const first = { name: 'first' };
    map.set(1, first);
    map.set(2, { name: 'second' });
    expect(map.size).toBe(2);
    expect(map.get(1)).toBe(first);
    expect(map.has(2)).toBe(true);
    map.set(2, { name: 'again' });
    expect(map.get(2)).toEqual({ name: 'again' });
    expect(map.delete(1)).toBe(true);
    expect(map.delete(1)).toBe(false);
    expect(map.get(1)).toBeUndefined();
    expect(map.has(1)).toBe(false);
    expect(map.size).toBe(1);
    // A key that comes back after it was removed starts afresh.
    map.set(1, first);
    expect([...map.entries()]).toEqual([
      [2, { name: 'again' }],
      [1, first],
    ]);
  });

  it('lets entries be removed while it is being walked, each visited once', () => {
    const map = new TransientMap<string, number[]>();
    for (const key of ['a', 'b', 'c']) map.set(key, [key.charCodeAt(0)]);
    const seen: string[] = [];
    for (const [key, value] of map.entries()) {
      seen.push(`${key}${value[0]}`);
      map.delete(key);
    }
    expect(seen).toEqual(['a97', 'b98', 'c99']);
    expect(map.size).toBe(0);
  });
});
