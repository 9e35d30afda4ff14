// The folders of src/ import each other without cycles ("dependencies point inward"): a cycle would make
// two folders one in all but name, and the ports of the update pipeline depend on them staying apart.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderCycles, folderEdges, type FolderEdge } from './folder-graph.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** A cycle named by its folders and the imports that close it. */
function describeCycle(folders: readonly string[], edges: readonly FolderEdge[]): string {
  const inside = edges.filter((e) => folders.includes(e.from) && folders.includes(e.to));
  return `${folders.join(' ⇄ ')}: ${inside.map((e) => e.example).join('; ')}`;
}

describe('folder import graph of src/', () => {
  const edges = folderEdges(SRC);

  it('sees the imports between folders (the scan works)', () => {
    expect(edges.length).toBeGreaterThan(10);
    expect(edges).toContainEqual(expect.objectContaining({ from: 'service', to: 'engine' }));
    expect(edges).toContainEqual(expect.objectContaining({ from: 'cli', to: 'service' }));
  });

  it('names a cycle when there is one', () => {
    const looped: FolderEdge[] = [
      { from: 'a', to: 'b', example: 'a/x.ts → b/y.ts' },
      { from: 'b', to: 'c', example: 'b/y.ts → c/z.ts' },
      { from: 'c', to: 'a', example: 'c/z.ts → a/x.ts' },
      { from: 'c', to: 'd', example: 'c/z.ts → d/w.ts' },
    ];
    expect(folderCycles(looped).map((c) => describeCycle(c, looped))).toEqual(['a ⇄ b ⇄ c: a/x.ts → b/y.ts; b/y.ts → c/z.ts; c/z.ts → a/x.ts']);
  });

  it('has no cycles between folders', () => {
    expect(folderCycles(edges).map((c) => describeCycle(c, edges))).toEqual([]);
  });

  // Rules, config and conversation tests all read YAML and report problems, and the sandbox, the engine and
  // conversation tests all read the service's markup: those folders must stay leaves, or any of their users
  // could close a cycle through them. Timing (the deadline queue) serves both the API client and the pipeline's
  // webhook holds, so it is a leaf for the same reason; so is the calendar (zones, dates, opening hours), which
  // the engine and the rule loader read.
  it('keeps the shared leaves (diagnostics, errors, yaml, markup, timing, calendar) free of imports other than leaves', () => {
    const leaves = ['diagnostics', 'errors', 'yaml', 'markup', 'timing', 'calendar'];
    expect(edges.filter((e) => leaves.includes(e.from) && !leaves.includes(e.to)).map((e) => e.example)).toEqual([]);
    expect(edges).toContainEqual(expect.objectContaining({ from: 'config', to: 'yaml' }));
    expect(edges).toContainEqual(expect.objectContaining({ from: 'engine', to: 'markup' }));
    expect(edges).toContainEqual(expect.objectContaining({ from: 'sandbox', to: 'markup' }));
    expect(edges).toContainEqual(expect.objectContaining({ from: 'api', to: 'timing' }));
    expect(edges).toContainEqual(expect.objectContaining({ from: 'pipeline', to: 'timing' }));
    expect(edges).toContainEqual(expect.objectContaining({ from: 'engine', to: 'calendar' }));
  });

  // The store is one wing: the Redis store stands on the pipeline's ports and the store-neutral kit at the
  // wing's root (records, fingerprint, document layout), never on the file store's insides.
  it('keeps store/redis off store/file', () => {
    const storeEdges = folderEdges(join(SRC, 'store'));
    expect(storeEdges.filter((e) => e.from === 'redis' && e.to === 'file').map((e) => e.example)).toEqual([]);
    expect(storeEdges).toContainEqual(expect.objectContaining({ from: 'redis', to: '.' }));
  });

  // src/service/ only wires the parts together: nothing but the entry points (the CLI, the embedded demo) may
  // lean on it, or a machine on the update's path would end up there again.
  it('lets only cli/ and demo/ import service/', () => {
    expect(edges.filter((e) => e.to === 'service' && !['cli', 'demo'].includes(e.from)).map((e) => e.example)).toEqual([]);
  });
});
