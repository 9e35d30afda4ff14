// Maps a JSON pointer from a schema error back to the YAML node it came from, so a config problem is
// reported as file:line:column. (The rules loader solves the same problem for rule files.)
import { isMap, isSeq, isScalar, type Document, type LineCounter, type Node } from 'yaml';

export interface Position {
  line: number;
  column: number;
}

function childNode(node: unknown, segment: string): { key: Node | null; value: Node | null } | null {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key as Node | null;
      const keyText = isScalar(key) ? String(key.value) : undefined;
      if (keyText === segment) return { key, value: (pair.value as Node | null) ?? null };
    }
    return null;
  }
  if (isSeq(node)) {
    const item = node.items[Number(segment)] as Node | undefined;
    return item ? { key: null, value: item } : null;
  }
  return null;
}

/** Position of the value at `pointer` (or of its key with `atKey`), falling back to the nearest parent. */
export function positionOf(
  doc: Document,
  lineCounter: LineCounter,
  pointer: string,
  atKey = false,
): Position {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = doc.contents;
  let best: Node | null = (doc.contents as Node | null) ?? null;
  for (let i = 0; i < segments.length; i++) {
    const child = childNode(node, segments[i]!);
    if (!child) break;
    const last = i === segments.length - 1;
    const target = last && atKey ? child.key : child.value ?? child.key;
    if (target) best = target;
    node = child.value;
  }
  const offset = best?.range?.[0] ?? 0;
  const pos = lineCounter.linePos(offset);
  return { line: pos.line, column: pos.col };
}
