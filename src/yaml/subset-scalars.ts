// One-line values for the fast block-YAML reader: plain, double- and single-quoted scalars and flow
// lists and mappings of them, resolved like YAML 1.2's core schema (what `yaml` uses). Anything unusual throws
// OutsideSubset, and the file is then read by `yaml` instead.

export class OutsideSubset extends Error {}

const INTEGER = /^[-+]?[0-9]+$/;
// The core schema's floats, as `yaml` tests them (with and without an exponent); it reads them with parseFloat too.
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$|^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
// The core schema's other numbers (.inf and .nan, 0o and 0x): left to `yaml`. Any other plain scalar that starts like
// a number is text there, and here: a duration (`3m`, `15 min`), a time (`10:00`), a date (`2026-11-27`), opening
// hours (`09:00-18:00`).
const OTHER_NUMBER = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$|^0o[0-7]+$|^0x[0-9a-fA-F]+$/;
/** Flow collections nested deeper than this are `yaml`'s to read. */
const MAX_FLOW_DEPTH = 4;
const NULLS = new Set(['~', 'null', 'Null', 'NULL']);
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);
// Only plain scalars starting like a null, a boolean or a number can be anything but text.
const MAYBE_NOT_TEXT = /^[-+.0-9~nNtTfF]/;
const BAD_START = /^[[\]{},#&*!|>%@`'"?:]|^-(?: |$)/;
const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['\\', '\\'],
  ['"', '"'],
  ['/', '/'],
  ['n', '\n'],
  ['t', '\t'],
]);
const TRAILER = /^ *(?: #.*)?$/;

/** A value written after `key: ` or `- ` (not a block scalar): a scalar, or a flow list or mapping on one line. */
export function inlineValue(text: string): unknown {
  if (text.startsWith('[') || text.startsWith('{')) {
    const { value, end } = flowCollection(text, 0, 0);
    if (!TRAILER.test(text.slice(end))) throw new OutsideSubset();
    return value;
  }
  if (text.startsWith('"')) return quoted(text, doubleQuoted(text, 0));
  if (text.startsWith("'")) return quoted(text, singleQuoted(text, 0));
  const comment = text.indexOf(' #');
  return plainScalar((comment >= 0 ? text.slice(0, comment) : text).replace(/ +$/, ''));
}

/** A plain scalar's value, written without its trailing spaces; one that would read as anything but a scalar: not ours. */
function plainScalar(written: string): unknown {
  if (written === '' || BAD_START.test(written) || written.includes(': ') || written.endsWith(':')) throw new OutsideSubset();
  return resolvePlain(written);
}

function resolvePlain(value: string): unknown {
  if (!MAYBE_NOT_TEXT.test(value)) return value;
  if (NULLS.has(value)) return null;
  const bool = BOOLEANS.get(value);
  if (bool !== undefined) return bool;
  if (INTEGER.test(value)) {
    // As `yaml` does it (so '-0' stays -0).
    const digits = parseInt(value.replace(/^[-+]/, ''), 10);
    return value.startsWith('-') ? -1 * digits : digits;
  }
  if (FLOAT.test(value)) return parseFloat(value);
  if (OTHER_NUMBER.test(value)) throw new OutsideSubset();
  return value;
}

// A mapping's key as the reader takes it, in a block or a flow mapping: plain, it may hold dots (`user.name:` in `set`
// and `when`) and dashes (`mon-fri:` in `hours`), or be an HTTP status (`404:` in a call's `on`, which yaml reads as
// a number and JavaScript keys as its digits); double-quoted, it holds no escapes (`"yes":`).
const KEY_NAME = '(?:([A-Za-z_][A-Za-z0-9_.-]*|[1-5][0-9]{2})|"([A-Za-z0-9_. -]*)")';
/** A block mapping's key: then `:` and spaces, or the end of the line. */
export const BLOCK_KEY = new RegExp(`^${KEY_NAME}:(?: +|$)`);
/** A flow mapping's key: then `: `. */
const FLOW_KEY = new RegExp(`^${KEY_NAME}: +`);
const RESERVED_KEYS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/**
 * The name of the key `key` (BLOCK_KEY's or FLOW_KEY's match) for `map`, and its length as written, where the reader
 * can take it: not a plain null or boolean (yaml's keys would not be text), not `__proto__`, not a key `map` already
 * has (yaml refuses it).
 */
export function keyName(key: RegExpExecArray | null, map: Record<string, unknown>): { name: string; length: number } {
  const name = key?.[1] ?? key?.[2];
  if (!key || name === undefined || (key[1] !== undefined && RESERVED_KEYS.has(name)) || name === '__proto__' || Object.hasOwn(map, name))
    throw new OutsideSubset();
  return { name, length: key[0].length };
}

/**
 * A flow list (`[a, "b", [c]]`) or mapping (`{ key: value, key: [a, b] }`) starting at `text[start]`, and where it
 * ends (after its closing bracket): what a trigger (`start: { command: book }`), a `set:` or a row of buttons is
 * written as. An empty item or value, a trailing comma, a comment inside the brackets, a repeated key, an implicit
 * mapping in a list (`[a: b]`) or nesting deeper than MAX_FLOW_DEPTH: not ours.
 */
function flowCollection(text: string, start: number, depth: number): { value: unknown; end: number } {
  if (depth > MAX_FLOW_DEPTH) throw new OutsideSubset();
  const list = text[start] === '[';
  const close = list ? ']' : '}';
  const items: unknown[] = [];
  const map: Record<string, unknown> = {};
  let i = skipSpaces(text, start + 1);
  if (text[i] === close) return { value: list ? items : map, end: i + 1 };
  for (;;) {
    let name: string | undefined;
    if (!list) {
      const key = keyName(FLOW_KEY.exec(text.slice(i)), map);
      name = key.name;
      i += key.length;
    }
    const item = flowItem(text, i, depth);
    if (name === undefined) items.push(item.value);
    else map[name] = item.value;
    i = skipSpaces(text, item.end);
    if (text[i] === close) return { value: list ? items : map, end: i + 1 };
    if (text[i] !== ',') throw new OutsideSubset();
    i = skipSpaces(text, i + 1);
    if (text[i] === close) throw new OutsideSubset(); // a trailing comma
  }
}

/** One item of a flow collection (or a mapping's value) at `text[i]`: a quoted or plain scalar, or a nested collection. */
function flowItem(text: string, i: number, depth: number): { value: unknown; end: number } {
  const c = text[i];
  if (c === '"') return doubleQuoted(text, i);
  if (c === "'") return singleQuoted(text, i);
  if (c === '[' || c === '{') return flowCollection(text, i, depth + 1);
  let end = i;
  while (end < text.length && !',[]{}#'.includes(text[end]!)) end++;
  return { value: plainScalar(text.slice(i, end).replace(/ +$/, '')), end };
}

function skipSpaces(text: string, from: number): number {
  while (text[from] === ' ') from++;
  return from;
}

/** The value of a quoted scalar, given where its closing quote ends; only a comment may follow. */
function quoted(text: string, parsed: { value: string; end: number }): string {
  if (!TRAILER.test(text.slice(parsed.end))) throw new OutsideSubset();
  return parsed.value;
}

function doubleQuoted(text: string, start: number): { value: string; end: number } {
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') return { value, end: i + 1 };
    if (c < ' ') throw new OutsideSubset();
    if (c !== '\\') {
      value += c;
      continue;
    }
    const e = text[++i];
    const simple = e === undefined ? undefined : ESCAPES.get(e);
    if (simple !== undefined) value += simple;
    else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) {
      value += String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
      i += 4;
    } else throw new OutsideSubset();
  }
  throw new OutsideSubset(); // continues on the next line
}

function singleQuoted(text: string, start: number): { value: string; end: number } {
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c !== "'") {
      value += c;
      continue;
    }
    if (text[i + 1] !== "'") return { value, end: i + 1 };
    value += "'";
    i++;
  }
  throw new OutsideSubset();
}
