// After a YAML syntax error, which rules of the file the parser still read whole: the items of the
// `rules:` list whose source holds no error (nor does the gap just before them). Their other problems
// can be reported in the same `hearsay check`, instead of one error hiding the rest.
import { isMap, isPair, isScalar, isSeq, type Document, type LineCounter } from 'yaml';

/** The rules a broken file still holds intact, and the lines they span. */
export interface IntactRules {
  indexes: ReadonlySet<number>;
  /** True when the 1-based line lies inside an intact rule. */
  holdsLine(line: number): boolean;
}

/** Undefined when the file has no readable `rules:` list at all. */
export function intactRules(doc: Document.Parsed, errorOffsets: readonly number[], lines: LineCounter): IntactRules | undefined {
  const root = doc.contents;
  if (!isMap(root)) return undefined;
  const pair = root.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === 'rules');
  const list = pair?.value;
  if (!isSeq(list)) return undefined;
  const indexes = new Set<number>();
  const spans: Array<[number, number]> = [];
  let previousEnd = list.range[0];
  list.items.forEach((item, index) => {
    const range = (item as { range?: [number, number, number] } | null)?.range;
    if (!range) return;
    const [start, , end] = range;
    // An error between two items may have cut the start of this one: it is not intact either.
    const broken = errorOffsets.some((offset) => offset >= previousEnd && offset <= end);
    previousEnd = end;
    if (broken) return;
    indexes.add(index);
    spans.push([lines.linePos(start).line, lines.linePos(Math.max(start, end - 1)).line]);
  });
  return { indexes, holdsLine: (line) => spans.some(([from, to]) => line >= from && line <= to) };
}
