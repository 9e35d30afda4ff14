// Splits a long HTML or MarkdownV2 reply into messages the service accepts: never inside a tag, an entity
// (`&amp;`), an escape (`\*`) or a link, and re-balanced at each cut — the formatting still open is closed at
// the end of one part and opened again at the start of the next, so every part is well-formed on its own.
// Cuts prefer a line break, then a space, in the second half of a part, as for plain text.
import { MAX_MESSAGE_LENGTH, splitMessageText } from './split-text.js';

/** The reply's parse mode as the Bot API spells it. */
export type ParseMode = 'HTML' | 'MarkdownV2' | 'Markdown';

/** An element open at some point: how to open it again and how to close it. */
interface OpenElement {
  key: string;
  open: string;
  close: string;
}

/** An unbreakable piece of the text and the elements open after it. */
interface Unit {
  text: string;
  open: readonly OpenElement[];
  /** Plain whitespace that may be dropped at a cut. */
  space: 'newline' | 'blank' | null;
}

/** Splits `text` for `parseMode` into parts of at most `limit` UTF-16 units each. */
export function splitFormattedText(text: string, parseMode: ParseMode | undefined, limit = MAX_MESSAGE_LENGTH): string[] {
  if (text.length <= limit || (parseMode !== 'HTML' && parseMode !== 'MarkdownV2')) return splitMessageText(text, limit);
  const units = parseMode === 'HTML' ? htmlUnits(text) : markdownUnits(text);
  // Only markup nested deeper than a part could hold (never near 4096) falls back to plain splitting.
  return cutUnits(units, limit) ?? splitMessageText(text, limit);
}

const opening = (open: readonly OpenElement[]) => open.map((e) => e.open).join('');
const closing = (open: readonly OpenElement[]) =>
  [...open]
    .reverse()
    .map((e) => e.close)
    .join('');

/** Greedy parts over the units; null when the markup alone would not fit a part (then plain splitting). */
function cutUnits(units: readonly Unit[], limit: number): string[] | null {
  const parts: string[] = [];
  let start = 0;
  let carried: readonly OpenElement[] = [];
  while (start < units.length) {
    const prefix = opening(carried);
    let length = prefix.length;
    let end = start; // units [start, end) fit
    let lastLine = -1;
    let lastBlank = -1;
    while (end < units.length) {
      const unit = units[end]!;
      if (length + unit.text.length + closing(unit.open).length > limit) break;
      length += unit.text.length;
      if (unit.space === 'newline') lastLine = end;
      if (unit.space === 'blank') lastBlank = end;
      end += 1;
    }
    if (end === units.length) {
      pushPart(
        parts,
        prefix +
          units
            .slice(start, end)
            .map((u) => u.text)
            .join(''),
      );
      break;
    }
    if (end === start) return null;
    const half = start + (end - start) / 2;
    // A cut at a line break or a space drops that character, as for plain text.
    const at = lastLine >= half ? lastLine : lastBlank >= half ? lastBlank : -1;
    const cut = at >= 0 ? at : end;
    const openAtCut = cut > start ? units[cut - 1]!.open : carried;
    pushPart(
      parts,
      prefix +
        units
          .slice(start, cut)
          .map((u) => u.text)
          .join('') +
        closing(openAtCut),
    );
    carried = at >= 0 ? units[at]!.open : openAtCut;
    start = at >= 0 ? at + 1 : cut;
  }
  return parts;
}

/** The service refuses empty or blank messages; markup around nothing counts as nothing. */
function pushPart(parts: string[], part: string): void {
  if (
    part
      .replace(/\\./g, 'x')
      .replace(/<[^>]*>|[*_~|`]/g, '')
      .trim() !== ''
  )
    parts.push(part);
}

/** Units of one text run, one code point each (a surrogate pair stays whole). */
function pushText(units: Unit[], run: string, open: readonly OpenElement[]): void {
  for (const char of run) units.push({ text: char, open, space: char === '\n' ? 'newline' : /\s/.test(char) ? 'blank' : null });
}

const HTML_TOKEN = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>|&#?[a-zA-Z0-9]+;/g;

function htmlUnits(text: string): Unit[] {
  const units: Unit[] = [];
  let open: readonly OpenElement[] = [];
  let at = 0;
  for (const match of text.matchAll(HTML_TOKEN)) {
    pushText(units, text.slice(at, match.index), open);
    at = match.index + match[0].length;
    const name = match[2]?.toLowerCase();
    if (name === undefined) {
      units.push({ text: match[0], open, space: null }); // an entity
    } else if (match[1] === '/') {
      const index = open.map((e) => e.key).lastIndexOf(name);
      if (index >= 0) open = open.slice(0, index).concat(open.slice(index + 1));
      units.push({ text: match[0], open, space: null });
    } else {
      open = [...open, { key: name, open: match[0], close: `</${name}>` }];
      units.push({ text: match[0], open, space: null });
    }
  }
  pushText(units, text.slice(at), open);
  return units;
}

const MARKERS = ['||', '__', '*', '_', '~'] as const;

function markdownUnits(text: string): Unit[] {
  const units: Unit[] = [];
  let open: readonly OpenElement[] = [];
  const toggle = (key: string, opener: string, closer: string) => {
    const index = open.map((e) => e.key).lastIndexOf(key);
    open = index >= 0 ? open.slice(0, index).concat(open.slice(index + 1)) : [...open, { key, open: opener, close: closer }];
  };
  let i = 0;
  while (i < text.length) {
    const inCode = open.some((e) => e.key === 'pre' || e.key === 'code');
    const rest = text.slice(i, i + 3);
    let token: string | undefined;
    if (text[i] === '\\' && i + 1 < text.length) {
      token = text.slice(i, i + 2 + (isHighSurrogate(text.charCodeAt(i + 1)) ? 1 : 0));
    } else if (rest === '```' && !open.some((e) => e.key === 'code')) {
      const pre = open.some((e) => e.key === 'pre');
      // The opener keeps its language line, so a reopened block has the same language.
      const language = pre ? '' : (/^[^\s`]*\n/.exec(text.slice(i + 3))?.[0] ?? '');
      token = '```' + language;
      toggle('pre', token, '```');
    } else if (text[i] === '`' && !open.some((e) => e.key === 'pre')) {
      token = '`';
      toggle('code', '`', '`');
    } else if (!inCode && (text[i] === '[' || (text[i] === '!' && text[i + 1] === '['))) {
      token = linkAt(text, i);
    } else if (!inCode) {
      const marker = MARKERS.find((m) => text.startsWith(m, i));
      if (marker) {
        token = marker;
        toggle(marker, marker, marker);
      }
    }
    if (token === undefined) {
      const char = String.fromCodePoint(text.codePointAt(i)!);
      pushText(units, char, open);
      i += char.length;
    } else {
      units.push({ text: token, open, space: null });
      i += token.length;
    }
  }
  return units;
}

/** `[text](url)` or `![emoji](tg://…)` starting at `i`, whole, or undefined when it is not one. */
function linkAt(text: string, i: number): string | undefined {
  const match = /^!?\[(?:\\.|[^\]\\])*\]\((?:\\.|[^)\\])*\)/s.exec(text.slice(i, i + 2048));
  return match?.[0];
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
