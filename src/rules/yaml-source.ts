// Parses one rule file's YAML while keeping source positions, so that every later problem (schema,
// regex, template, duplicate id) can point at the exact node that caused it.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { RuleProblem, type SourcePosition } from './problem.js';

export type NodePath = readonly (string | number)[];

export interface ParsedYaml {
  file: string;
  /** The plain data, or undefined when the YAML itself is broken (see problems). */
  data: unknown;
  problems: RuleProblem[];
  /** Position of the value at `path`, or of its key when `key` is set; falls back to the nearest existing parent. */
  locate(path: NodePath, key?: boolean): SourcePosition;
}

export function parseYaml(file: string, text: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const problems: RuleProblem[] = [];
  for (const error of doc.errors) {
    const { line, column } = at(error.pos[0]);
    problems.push(new RuleProblem(file, line, column, `YAML: ${firstLine(error.message)}`));
  }

  const locate = (path: NodePath, key = false): SourcePosition => {
    let node: unknown = doc.contents;
    let position = at(rangeStart(node) ?? 0);
    for (const [i, segment] of path.entries()) {
      const last = i === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
        if (!pair) break;
        const keyStart = rangeStart(pair.key);
        if (last && key && keyStart !== undefined) return at(keyStart);
        node = pair.value;
        const start = rangeStart(node) ?? keyStart;
        if (start === undefined) break;
        position = at(start);
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment];
        const start = rangeStart(node);
        if (start === undefined) break;
        position = at(start);
      } else {
        break;
      }
    }
    return position;
  };

  let data: unknown;
  if (doc.errors.length === 0) {
    try {
      data = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      // e.g. an alias bomb: report it at the top of the file rather than crash the loader.
      problems.push(new RuleProblem(file, 1, 1, `YAML: ${firstLine(error instanceof Error ? error.message : String(error))}`));
    }
  }
  return { file, data, problems, locate };
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return Array.isArray(range) ? range[0] : undefined;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}
