// A fast reader for the plain block YAML that rule files are nearly always written in (mappings,
// lists, one-line scalars, one-line flow lists and mappings, `|` and `|-` literal blocks, comments). The `yaml`
// library builds a full node tree and is most of a large reload's time; this reads the same data
// several times faster. It gives up (returns undefined) on anything outside its subset (anchors,
// tags, folded or multi-line scalars, tabs, CR, unusual numbers, duplicate keys, …) and the caller
// then uses `yaml`, so the data is always what `yaml` gives; test/yaml/block-subset.test.ts checks it.
import { BLOCK_KEY, inlineValue, keyName, OutsideSubset } from './subset-scalars.js';

/** Where a list item's content starts (1-based), as `yaml` reports the item node's range start. */
export interface ItemStart {
  line: number;
  column: number;
}

export interface SubsetParse {
  data: unknown;
  /** For each block list in the data, the start of each of its items. */
  itemStarts: Map<unknown[], ItemStart[]>;
}

interface Line {
  /** 0-based index into the raw lines. */
  row: number;
  indent: number;
  content: string;
}

const LITERAL_BLOCK = /^\|(-?)(?: +#.*)?$/;

export function parseBlockSubset(text: string): SubsetParse | undefined {
  // YAML's only white space here is the space; line breaks other than \n are left to `yaml`.
  if (/[\r\t\uFEFF\u0085\u2028\u2029]/.test(text)) return undefined;
  const raw = text.split('\n');
  const lines: Line[] = [];
  for (const [row, line] of raw.entries()) {
    const indent = leadingSpaces(line);
    if (indent === line.length || line[indent] === '#') continue;
    if (/^(---|\.\.\.|%)/.test(line)) return undefined;
    lines.push({ row, indent, content: line.slice(indent).replace(/ +$/, '') });
  }
  if (lines.length === 0) return undefined;
  try {
    const reader = new BlockReader(lines, raw);
    const data = reader.node(0);
    return reader.done() ? { data, itemStarts: reader.itemStarts } : undefined;
  } catch (error) {
    if (error instanceof OutsideSubset) return undefined;
    throw error;
  }
}

class BlockReader {
  private at = 0;
  readonly itemStarts = new Map<unknown[], ItemStart[]>();

  constructor(
    private readonly lines: Line[],
    private readonly raw: readonly string[],
  ) {}

  done(): boolean {
    return this.at === this.lines.length;
  }

  /** The block starting at the current line, which must be indented at least `min`. */
  node(min: number): unknown {
    const line = this.lines[this.at];
    if (!line || line.indent < min) return null;
    return isItem(line.content) ? this.list(line.indent) : this.map(line.indent);
  }

  private list(indent: number): unknown[] {
    const items: unknown[] = [];
    const starts: ItemStart[] = [];
    for (let line = this.lines[this.at]; line && line.indent === indent && isItem(line.content); line = this.lines[this.at]) {
      const rest = line.content.slice(1).replace(/^ +/, '');
      if (rest === '' || rest.startsWith('#')) {
        this.at++;
        const next = this.lines[this.at];
        if (!next || next.indent <= indent) throw new OutsideSubset(); // an empty item
        starts.push({ line: next.row + 1, column: next.indent + 1 });
        items.push(this.node(indent + 1));
        continue;
      }
      const column = indent + (line.content.length - rest.length);
      starts.push({ line: line.row + 1, column: column + 1 });
      if (BLOCK_KEY.test(rest)) {
        // `- key: value`: a mapping whose keys line up with this first one.
        this.lines[this.at] = { row: line.row, indent: column, content: rest };
        items.push(this.map(column));
      } else {
        if (isItem(rest)) throw new OutsideSubset();
        items.push(this.value(rest, line, indent));
      }
    }
    this.noDeeperLine(indent);
    this.itemStarts.set(items, starts);
    return items;
  }

  private map(indent: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    for (let line = this.lines[this.at]; line && line.indent === indent && !isItem(line.content); line = this.lines[this.at]) {
      const { name, length } = keyName(BLOCK_KEY.exec(line.content), map);
      const rest = line.content.slice(length);
      if (rest === '' || rest.startsWith('#')) {
        this.at++;
        const next = this.lines[this.at];
        // A list may sit at the key's own indentation.
        map[name] = next && (next.indent > indent || (next.indent === indent && isItem(next.content))) ? this.node(indent) : null;
      } else {
        map[name] = this.value(rest, line, indent);
      }
    }
    this.noDeeperLine(indent);
    return map;
  }

  /** A value on the line itself (consumes the line, and a literal block's lines). */
  private value(text: string, line: Line, parentIndent: number): unknown {
    const block = LITERAL_BLOCK.exec(text);
    const value = block ? this.literalBlock(line.row, parentIndent, block[1] === '-') : inlineValue(text);
    if (!block) this.at++;
    this.noDeeperLine(parentIndent);
    return value;
  }

  /** `|` (one final line break kept) or `|-` (none): the following lines more indented than the parent. */
  private literalBlock(headerRow: number, parentIndent: number, strip: boolean): string {
    const first = this.raw[headerRow + 1];
    const indent = first === undefined ? 0 : leadingSpaces(first);
    // Leading empty lines and empty blocks have their own rules: not ours.
    if (first === undefined || indent === first.length || indent <= parentIndent) throw new OutsideSubset();
    const body: string[] = [];
    let row = headerRow + 1;
    for (; row < this.raw.length; row++) {
      const line = this.raw[row]!;
      const spaces = leadingSpaces(line);
      if (spaces === line.length) {
        if (spaces > indent) throw new OutsideSubset(); // white-space-only content lines: not ours
        body.push('');
        continue;
      }
      if (spaces < indent) break;
      body.push(line.slice(indent));
    }
    // The block must end with a line break of its own (at the end of the text, `yaml` differs).
    if (row === this.raw.length && this.raw[row - 1] !== '') throw new OutsideSubset();
    while (body.length > 0 && body[body.length - 1] === '') body.pop();
    while (this.lines[this.at] && this.lines[this.at]!.row < row) this.at++;
    return body.join('\n') + (strip ? '' : '\n');
  }

  /** A line indented deeper than what came before it would continue a scalar, or be an error: not ours. */
  private noDeeperLine(indent: number): void {
    const next = this.lines[this.at];
    if (next && next.indent > indent) throw new OutsideSubset();
  }
}

/** How many spaces `line` starts with. */
export function leadingSpaces(line: string): number {
  let n = 0;
  while (line[n] === ' ') n++;
  return n;
}

function isItem(content: string): boolean {
  return content === '-' || content.startsWith('- ');
}
