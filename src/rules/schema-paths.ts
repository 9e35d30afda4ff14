// Paths into parsed rule-file data, shared by the schema messages for rules and for flows: a JSON pointer
// as a node path, and the value a path leads to.
import type { NodePath } from '../yaml/source.js';

/** A JSON pointer (`/rules/3/reply`) as a node path (`['rules', 3, 'reply']`). */
export function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** The value at `path` in `data`, or undefined where the path leaves it. */
export function valueAt(data: unknown, path: NodePath): unknown {
  let node: unknown = data;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/** Whether a value is a mapping (not null, not a list). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
