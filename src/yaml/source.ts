// Parses one YAML file (rules, config, conversation tests) while keeping source positions, so that every
// later problem (schema, regex, template, duplicate id) can point at the exact node that caused it.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type YAMLError } from 'yaml';
import { RuleProblem, type SourcePosition } from '../diagnostics/problem.js';
import { intactRules, type IntactRules } from './intact-rules.js';
import { leadingSpaces, parseBlockSubset, type ItemStart, type SubsetParse } from './block-subset.js';

export type NodePath = readonly (string | number)[];

export interface ParsedYaml {
  file: string;
  /** The plain data; with YAML problems, what the parser still read (or undefined), see `intact`. */
  data: unknown;
  problems: RuleProblem[];
  /** Set only when the YAML has problems: the rules still read whole, whose other problems can be checked. */
  intact?: IntactRules;
  /** Position of the value at `path`, or of its key when `key` is set; falls back to the nearest existing parent. */
  locate(path: NodePath, key?: boolean): SourcePosition;
}

// logLevel 'error': yaml's own warnings (e.g. an unquoted `{{x}}` read as a mapping key) would go to
// the process' stderr; the problem is reported at its position instead.
const PARSE_OPTIONS = { prettyErrors: false, uniqueKeys: true, logLevel: 'error' } as const;

export function parseYaml(file: string, text: string): ParsedYaml {
  return parseBlockSubsetFile(file, text) ?? parseFullYaml(file, text);
}

/**
 * Clean rule files nearly always stay within plain block YAML: read those with the fast subset reader,
 * and build `yaml`'s node tree (same text, same result) only the first time a position is asked for that the
 * fast reader does not know (a top-level key's, or an item's of a top-level list: a rule's, a flow's), i.e.
 * when there is a problem or a warning to place. The tree of a large file is several times its text in memory.
 */
function parseBlockSubsetFile(file: string, text: string): ParsedYaml | undefined {
  const fast = parseBlockSubset(text);
  if (!fast) return undefined;
  const data = fast.data;
  const top = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  // Only the tree's positions are wanted then (not its data: the fast reader's is the same).
  let tree: ReturnType<typeof parseTree> | undefined;
  const lines = new LineStarts(text);
  const locate = (path: NodePath, key = false): SourcePosition => {
    const start = top && fastPosition(top, fast.itemStarts, lines, path, key);
    if (start) return { file, line: start.line, column: start.column };
    tree ??= parseTree(file, text);
    return locateIn(tree.doc, path, key, tree.at);
  };
  return { file, data, problems: [], locate };
}

/**
 * The position `yaml` gives a top-level key (`key`), an item of a top-level block list (a rule, a flow), or a key or
 * value of such an item's own mapping (a flow's `start`); undefined for any other, which `yaml`'s tree then places.
 */
function fastPosition(
  top: Record<string, unknown>,
  itemStarts: SubsetParse['itemStarts'],
  lines: LineStarts,
  path: NodePath,
  key: boolean,
): ItemStart | undefined {
  const [name, index, field] = path;
  if (typeof name !== 'string' || !Object.hasOwn(top, name)) return undefined;
  // The top-level mapping's keys start at column 1 (one written indented is yaml's to place).
  if (key && path.length === 1) return fieldStart(lines, { line: 1, column: 1 }, name, true);
  const list = top[name];
  if (typeof index !== 'number' || !Array.isArray(list) || path.length > 3) return undefined;
  const itemStart = itemStarts.get(list)?.[index];
  if (path.length === 2) return key ? undefined : itemStart;
  const item: unknown = list[index];
  const own = typeof field === 'string' && item !== null && typeof item === 'object' && !Array.isArray(item) && Object.hasOwn(item, field);
  return own && itemStart ? fieldStart(lines, itemStart, field, key) : undefined;
}

/** Where each line of a text starts, worked out the first time a key's or a field's position is asked for. */
class LineStarts {
  private starts: number[] | undefined;

  constructor(private readonly text: string) {}

  /** Line `row` (0-based) without its line break, or undefined past the end. */
  line(row: number): string | undefined {
    if (!this.starts) {
      this.starts = [0];
      for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) this.starts.push(i + 1);
    }
    const start = this.starts[row];
    if (start === undefined) return undefined;
    const end = this.starts[row + 1];
    return this.text.slice(start, end === undefined ? this.text.length : end - 1);
  }
}

/**
 * The key `field` of a block mapping whose keys sit at `first`'s column from `first`'s line on (a list item's, or the
 * top-level one), or the start of its value: on the key's line after `: `, or the first line below (a nested
 * mapping's first key, or a list's first `- `); a key with no value is placed at the key, as `yaml` does. The
 * mapping's keys are the lines at that column, up to the first line left of it; deeper lines, blank lines and
 * comments belong to values. Undefined when the key is not written plain at the start of such a line.
 */
function fieldStart(lines: LineStarts, first: ItemStart, field: string, key: boolean): ItemStart | undefined {
  const indent = first.column - 1;
  const written = `${field}:`;
  for (let row = first.line - 1; ; row++) {
    const text = lines.line(row);
    if (text === undefined) return undefined;
    const spaces = row === first.line - 1 ? indent : leadingSpaces(text);
    if (spaces === text.length || text[spaces] === '#') continue;
    if (spaces < indent) return undefined;
    if (spaces > indent) continue; // a value's line (a `- ` at the key's column is one too: it never reads as `field:`)
    const after = spaces + written.length;
    if (!text.startsWith(written, spaces) || (after < text.length && text[after] !== ' ')) continue;
    if (key) return { line: row + 1, column: indent + 1 };
    const valueAt = after + leadingSpaces(text.slice(after));
    if (valueAt < text.length && text[valueAt] !== '#') return { line: row + 1, column: valueAt + 1 };
    return belowKey(lines, row, indent) ?? { line: row + 1, column: indent + 1 };
  }
}

/** The first line below `row` that holds a value of a key at `indent` (deeper, or a `- ` at the same column). */
function belowKey(lines: LineStarts, row: number, indent: number): ItemStart | undefined {
  for (let next = row + 1; ; next++) {
    const text = lines.line(next);
    if (text === undefined) return undefined;
    const spaces = leadingSpaces(text);
    if (spaces === text.length || text[spaces] === '#') continue;
    return spaces > indent || (spaces === indent && text.startsWith('-', spaces)) ? { line: next + 1, column: spaces + 1 } : undefined;
  }
}

/** `yaml`'s node tree of `text`, with the line counter that turns its offsets into positions. */
function parseTree(file: string, text: string): { doc: Document.Parsed; lineCounter: LineCounter; at: (offset: number) => SourcePosition } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...PARSE_OPTIONS, lineCounter });
  const at = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  return { doc, lineCounter, at };
}

function parseFullYaml(file: string, text: string): ParsedYaml {
  const { doc, lineCounter, at } = parseTree(file, text);
  const problems: RuleProblem[] = [];
  const linesWithProblem = new Set<number>();
  for (const error of doc.errors) {
    const { line, column } = at(error.pos[0]);
    // The errors after the first on a line follow from it (a tab indent also breaks the mapping).
    if (linesWithProblem.has(line)) continue;
    linesWithProblem.add(line);
    problems.push(new RuleProblem(file, line, column, `YAML: ${yamlErrorMessage(error, text)}`));
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // e.g. an alias bomb: report it at the top of the file rather than crash the loader.
    if (doc.errors.length === 0) problems.push(new RuleProblem(file, 1, 1, `YAML: ${firstLine(error instanceof Error ? error.message : String(error))}`));
  }
  const locate = (path: NodePath, key = false) => locateIn(doc, path, key, at);
  if (doc.errors.length === 0) return { file, data, problems, locate };
  const intact = data === undefined ? undefined : intactRules(doc, [...new Set(doc.errors.map((error) => error.pos[0]))], lineCounter);
  return { file, data, problems, locate, ...(intact ? { intact } : {}) };
}

function locateIn(doc: Document.Parsed, path: NodePath, key: boolean, at: (offset: number) => SourcePosition): SourcePosition {
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
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return Array.isArray(range) ? range[0] : undefined;
}

/** yaml's wording for the mistakes new users make most, rephrased to say what to change. */
function yamlErrorMessage(error: YAMLError, text: string): string {
  switch (error.code) {
    case 'TAB_AS_INDENT':
      return 'a tab indents this line; YAML indents with spaces only';
    case 'BLOCK_AS_IMPLICIT_KEY':
      return "a second ': ' on this line starts a nested mapping; if it is part of the text, put the whole value in quotes";
    case 'DUPLICATE_KEY': {
      const key = /^[^:\n]*/.exec(text.slice(error.pos[0]))?.[0].trim();
      return key ? `key '${key}' appears twice in the same mapping; keep one` : firstLine(error.message);
    }
    default:
      return firstLine(error.message);
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}
