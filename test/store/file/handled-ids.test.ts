// The journal's memory of handled update ids: it answers as a Map of ids to fingerprints would, in the same order,
// through growth, compaction and deletes made while iterating, and holds 100,000 ids in about half a Map's memory.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HandledIds } from '../../../src/store/file/handled-ids.js';

/** The built module (npm test builds dist/ first), for a process of its own that measures its heap. */
const BUILT = new URL('../../../dist/store/file/handled-ids.js', import.meta.url).href;

/** A fingerprint as updateFingerprint makes them: 12 base64url characters. */
const print = (n: number) => createHash('sha256').update(String(n)).digest('base64url').slice(0, 12);

/** A small deterministic random source, so that a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
}

function expectSame(ids: HandledIds, map: Map<number, string>): void {
  expect(ids.size).toBe(map.size);
  expect([...ids]).toEqual([...map]);
  expect([...ids.keys()]).toEqual([...map.keys()]);
}

describe('HandledIds', () => {
  it('answers every get, has and delete as a Map does, through growth and compaction', () => {
    const next = random(7);
    const ids = new HandledIds();
    const map = new Map<number, string>();
    let newest = 1_000_000;
    for (let step = 0; step < 60_000; step += 1) {
      const roll = next();
      // Mostly new ids a little out of order, as concurrent commits write them; some known ids again, some deletes.
      const id = roll < 0.7 ? newest++ + Math.floor(next() * 8) : 1_000_000 + Math.floor(next() * (newest - 1_000_000 + 10));
      if (roll < 0.85) {
        const kind = next();
        const fingerprint = kind < 0.8 ? print(id) : kind < 0.9 ? '' : kind < 0.95 ? 'short-1' : 'not/base64url';
        map.delete(id);
        map.set(id, fingerprint);
        ids.set(id, fingerprint);
      } else {
        expect(ids.delete(id)).toBe(map.delete(id));
      }
      const probe = 1_000_000 + Math.floor(next() * (newest - 1_000_000 + 10));
      expect(ids.get(probe)).toBe(map.get(probe));
      expect(ids.has(probe)).toBe(map.has(probe));
      // What the journal does at twice its capacity: the oldest go, deleted while iterating.
      if (map.size > 4_000) {
        for (const key of ids.keys()) {
          if (ids.size <= 2_000) break;
          ids.delete(key);
        }
        for (const key of map.keys()) {
          if (map.size <= 2_000) break;
          map.delete(key);
        }
        expectSame(ids, map);
      }
    }
    expectSame(ids, map);
  });

  it('forgets ids below an offset while iterating, and everything on clear', () => {
    const ids = new HandledIds();
    const map = new Map<number, string>();
    for (let id = 1; id <= 5_000; id += 1) {
      const at = id % 2 === 0 ? id + 5_000 : id;
      ids.set(at, print(at));
      map.set(at, print(at));
    }
    for (const id of ids.keys()) if (id < 3_000) ids.delete(id);
    for (const id of map.keys()) if (id < 3_000) map.delete(id);
    expectSame(ids, map);
    ids.clear();
    expect(ids.size).toBe(0);
    expect([...ids]).toEqual([]);
    expect(ids.get(9_000)).toBeUndefined();
    ids.set(9_000, print(1));
    expect([...ids]).toEqual([[9_000, print(1)]]);
  });

  it('keeps ids past 2^32 and setting a known id moves it to the newest end', () => {
    const ids = new HandledIds();
    const big = 2 ** 40 + 3;
    ids
      .set(big, print(1))
      .set(3, print(2))
      .set(big + 2 ** 32, print(3));
    expect(ids.get(big)).toBe(print(1));
    expect(ids.get(big + 2 ** 32)).toBe(print(3));
    ids.set(big, print(4));
    expect([...ids.keys()]).toEqual([3, big + 2 ** 32, big]);
    expect(ids.get(big)).toBe(print(4));
  });

  it('holds 100,000 ids with their fingerprints in under 4 MB, where a Map needs over 6', () => {
    const measure = (kind: 'HandledIds' | 'Map') =>
      Number(
        execFileSync(
          process.execPath,
          [
            '--expose-gc',
            '--input-type=module',
            '-e',
            `import { HandledIds } from '${BUILT}';
             import { createHash } from 'node:crypto';
             // Typed arrays keep their bytes outside V8's heap: both count.
             const used = () => { gc(); gc(); const memory = process.memoryUsage(); return memory.heapUsed + memory.arrayBuffers; };
             const prints = Array.from({ length: 100000 }, (_, i) => createHash('sha256').update(String(i)).digest('base64url').slice(0, 12));
             const before = used();
             const ids = ${kind === 'Map' ? 'new Map()' : 'new HandledIds()'};
             for (let i = 0; i < 100000; i += 1) ids.set(1000000 + i, prints[i].slice(0, 6) + prints[i].slice(6));
             const after = used();
             // prints stays in use to the end, so that what it holds is not freed inside the measurement.
             console.log(after - before + (ids.size === prints.length ? 0 : NaN));`,
          ],
          { encoding: 'utf8' },
        ),
      ) /
      2 ** 20;
    const compact = measure('HandledIds');
    expect(compact).toBeLessThan(4);
    expect(measure('Map')).toBeGreaterThan(6);
  });
});
