// The bundle step's clean-up of esbuild's keepNames: every function and class keeps the `.name` it has with
// keepNames, including those esbuild renamed to avoid a clash, while the calls that changed nothing are gone.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = new URL('../../scripts/drop-redundant-names.mjs', import.meta.url).href;
const { dropRedundantNames } = (await import(script)) as { dropRedundantNames(code: string): { code: string; dropped: number } };
const dir = mkdtempSync(join(tmpdir(), 'hearsay-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Two modules with the same top-level names, so esbuild renames one of each pair (Failure2, helper2).
const first = `
export class Failure extends Error { constructor() { super(); this.name = new.target.name; } }
export function helper() { return 1; }
export const arrow = () => 2;
export function makeClosures() {
  const consider = (x) => x + 1;
  function inner() {}
  const literal = { onAbort: () => 0, named: function other() {} };
  return { consider, inner, onAbort: literal.onAbort, other: literal.named };
}
export const Anonymous = class {};
`;
const second = `
export class Failure extends Error { constructor() { super(); this.name = new.target.name; } }
export function helper() { return 3; }
`;
const entry = `
import * as a from './first.js';
import * as b from './second.js';
module.exports = { a, b };
`;

async function bundled(): Promise<string> {
  writeFileSync(join(dir, 'first.js'), first);
  writeFileSync(join(dir, 'second.js'), second);
  writeFileSync(join(dir, 'entry.js'), entry);
  const result = await build({ entryPoints: [join(dir, 'entry.js')], bundle: true, format: 'cjs', platform: 'node', keepNames: true, write: false });
  return result.outputFiles[0]!.text;
}

type Loaded = { a: Record<string, { name: string }> & { makeClosures(): Record<string, { name: string }> }; b: Record<string, { name: string }> };
function names(code: string, file: string): string[] {
  writeFileSync(join(dir, file), code);
  const { a, b } = createRequire(import.meta.url)(join(dir, file)) as Loaded;
  const closures = a.makeClosures();
  return [
    a.Failure!.name,
    b.Failure!.name,
    new (a.Failure as unknown as new () => Error)().name,
    new (b.Failure as unknown as new () => Error)().name,
    a.helper!.name,
    b.helper!.name,
    a.arrow!.name,
    a.Anonymous!.name,
    ...Object.values(closures).map((f) => f.name),
  ];
}

describe('dropRedundantNames', () => {
  it('keeps every name keepNames gives, renamed ones included, with fewer calls', async () => {
    const code = await bundled();
    expect(code).toMatch(/Failure2\b/);
    const { code: cleaned, dropped } = dropRedundantNames(code);
    const expected = ['Failure', 'Failure', 'Failure', 'Failure', 'helper', 'helper', 'arrow', 'Anonymous', 'consider', 'inner', 'onAbort', 'other'];
    expect(names(code, 'with-keep-names.cjs')).toEqual(expected);
    expect(names(cleaned, 'cleaned.cjs')).toEqual(expected);
    expect(dropped).toBeGreaterThan(5);
    // What stays restores a renamed identifier's name; the closure made per call is no longer wrapped.
    expect(cleaned).toMatch(/__name\(this, "Failure"\)|__name\(helper2, "helper"\)/);
    expect(cleaned).not.toMatch(/__name\(\(x\) => x \+ 1, "consider"\)/);
    expect(code).toMatch(/__name\(\(x\) => x \+ 1, "consider"\)/);
  });
});
