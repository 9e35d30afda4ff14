// Builds the import graph between the top-level folders of src/ from the sources themselves (TypeScript's
// own import scanner, so comments and strings that look like imports do not count) and finds its cycles.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One folder-to-folder edge with a file that makes it, for a readable failure. */
export interface FolderEdge {
  from: string;
  to: string;
  /** e.g. `engine/compile.ts → rules/problem.ts`. */
  example: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The folder a file of `root` sits in: its first path segment (files directly in root count as `.`). */
function folderOf(root: string, file: string): string {
  const parts = relative(root, file).split(sep);
  return parts.length > 1 ? parts[0]! : '.';
}

/** Edges between different folders of `root`, static and dynamic imports and re-exports alike. */
export function folderEdges(root: string): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const file of sourceFiles(root)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      if (relative(root, target).startsWith('..')) continue;
      const from = folderOf(root, file);
      const to = folderOf(root, target);
      if (from === to) continue;
      const key = `${from}->${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, example: `${relative(root, file)} → ${relative(root, target).replace(/\.js$/, '.ts')}` });
    }
  }
  return [...edges.values()];
}

/** Every elementary cycle's folders, found once each (as strongly connected components with more than one folder). */
export function folderCycles(edges: readonly FolderEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  // Tarjan's algorithm: each component of two or more folders holds at least one cycle.
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    indexOf.set(node, indexOf.size);
    low.set(node, indexOf.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!indexOf.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, indexOf.get(to)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of new Set(edges.flatMap((e) => [e.from, e.to]))) if (!indexOf.has(node)) visit(node);
  return components;
}
