// One-line values for the fast block-YAML reader: plain, double- and single-quoted scalars and flow
// lists of them, resolved like YAML 1.2's core schema (what `yaml` uses). Anything unusual throws
// OutsideSubset, and the file is then read by `yaml` instead.

export class OutsideSubset extends Error {}

const INTEGER = /^[-+]?[0-9]+$/;
// The core schema's other numbers, as `yaml` tests them (floats, .inf and .nan, 0o and 0x): left to `yaml`. Any other
// plain scalar that starts like a number is text there, and here: a duration (`3m`, `15 min`), a time (`10:00`), a
// date (`2026-11-27`), opening hours (`09:00-18:00`).
const OTHER_NUMBER =
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$|^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$|^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$|^0o[0-7]+$|^0x[0-9a-fA-F]+$/;
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

/** A value written after `key: ` or `- ` (not a block scalar): a scalar or a flow list of scalars. */
export function inlineValue(text: string): unknown {
  if (text.startsWith('[')) return flowList(text);
  if (text.startsWith('"')) return quoted(text, doubleQuoted(text, 0));
  if (text.startsWith("'")) return quoted(text, singleQuoted(text, 0));
  if (BAD_START.test(text)) throw new OutsideSubset();
  const comment = text.indexOf(' #');
  const value = (comment >= 0 ? text.slice(0, comment) : text).replace(/ +$/, '');
  if (value.includes(': ') || value.endsWith(':')) throw new OutsideSubset();
  return resolvePlain(value);
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
  if (OTHER_NUMBER.test(value)) throw new OutsideSubset();
  return value;
}

/** `[a, "b", 'c']` on one line; no nesting, no empty items. */
function flowList(text: string): unknown[] {
  const items: unknown[] = [];
  let i = skipSpaces(text, 1);
  if (text[i] === ']') {
    if (!TRAILER.test(text.slice(i + 1))) throw new OutsideSubset();
    return items;
  }
  for (;;) {
    i = skipSpaces(text, i);
    const c = text[i];
    if (c === '"' || c === "'") {
      const item = c === '"' ? doubleQuoted(text, i) : singleQuoted(text, i);
      items.push(item.value);
      i = item.end;
    } else {
      let end = i;
      while (end < text.length && !',[]{}#'.includes(text[end]!)) end++;
      const plain = text.slice(i, end).replace(/ +$/, '');
      if (plain === '' || BAD_START.test(plain) || plain.includes(': ') || plain.endsWith(':')) throw new OutsideSubset();
      items.push(resolvePlain(plain));
      i = end;
    }
    i = skipSpaces(text, i);
    if (text[i] === ']') {
      if (!TRAILER.test(text.slice(i + 1))) throw new OutsideSubset();
      return items;
    }
    if (text[i] !== ',' || text[skipSpaces(text, i + 1)] === ']') throw new OutsideSubset();
    i++;
  }
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
