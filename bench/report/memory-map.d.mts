// Types of memory-map.mjs for the TypeScript tests (the bench itself is plain JavaScript).

/** A V8 heap snapshot as written by node (`.heapsnapshot`), the parts read here. */
export interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export function residentByGroup(smapsText: string, executable: string): { total: number; groups: Map<string, number>; largestAnonymous: number[] };
export function liveByKind(snapshot: HeapSnapshot): { total: number; kinds: [string, number][]; largeStrings: [string, number][] };
export function memoryReport(pid: number | string, snapshotFile?: string): string[];
