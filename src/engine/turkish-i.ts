// The Turkish capital İ (U+0130) and dotless ı (U+0131) in case-insensitive patterns. Unicode's simple case
// folding, which RE2 follows, joins neither with i, so `izmir` would not match `İZMİR` although `text` and
// `keywords` fold both to i. A case-insensitive pattern that does not match gets a second chance wherever either
// side has one: the message read with İ and ı as i (one UTF-16 unit each, so every offset, and so every capture,
// maps back to the message as written) against the pattern with its own İ and ı read as i. Only matches are
// added: what a pattern matched before, it still matches, with the same captures.

const TURKISH_I = /[\u0130\u0131]/;
const EVERY_TURKISH_I = /[\u0130\u0131]/g;
const TURKISH_I_IN_SOURCE = /[\u0130\u0131]|\\x\{0*13[01]\}/i;
const TURKISH_I_ESCAPE = /^\\x\{0*13[01]\}$/i;
/** One escape of RE2 syntax: `\x{…}`, `\p{…}` / `\P{…}`, or a backslash and one character. */
const ESCAPE = /^\\(?:x\{[0-9A-Fa-f]*\}|[pP]\{[^}]*\}|[\s\S])/;

// Every pattern tried on a message asks about the same string: the answers for the last one are kept.
let lastText: string | undefined;
let lastHas = false;
let lastPlain: string | undefined;

/** Whether `text` has an İ or ı (false for nearly every message, answered once per message). */
export function hasTurkishI(text: string): boolean {
  if (text !== lastText) {
    lastText = text;
    lastHas = TURKISH_I.test(text);
    lastPlain = undefined;
  }
  return lastHas;
}

/** `text` with İ and ı as i; undefined when it has neither. */
export function withPlainI(text: string): string | undefined {
  if (!hasTurkishI(text)) return undefined;
  return (lastPlain ??= text.replace(EVERY_TURKISH_I, 'i'));
}

/** Whether a UTF-16 code unit is İ or ı. */
export function isTurkishI(code: number): boolean {
  return code === 0x130 || code === 0x131;
}

/**
 * The pattern (valid RE2 syntax) with its own İ and ı read as i: replaced by i outside character classes and in
 * `\Q…\E`, and a class that names one also takes i (`[İı]` becomes `(?:[İı]|i)`; a negated class is left as it
 * is). Undefined when the pattern has neither.
 */
export function patternWithPlainI(source: string): string | undefined {
  if (!TURKISH_I_IN_SOURCE.test(source)) return undefined;
  let out = '';
  for (let at = 0; at < source.length;) {
    const ch = source[at]!;
    if (ch === '[') {
      const end = classEnd(source, at);
      const cls = source.slice(at, end);
      const namesI = TURKISH_I.test(cls) || /\\x\{0*13[01]\}/i.test(cls);
      out += namesI && cls[1] !== '^' ? `(?:${cls}|i)` : cls;
      at = end;
    } else if (ch === '\\' && source[at + 1] === 'Q') {
      const close = source.indexOf('\\E', at + 2);
      const end = close < 0 ? source.length : close + 2;
      out += source.slice(at, end).replace(EVERY_TURKISH_I, 'i');
      at = end;
    } else if (ch === '\\') {
      const escape = ESCAPE.exec(source.slice(at, at + 64))?.[0] ?? ch;
      out += TURKISH_I_ESCAPE.test(escape) ? 'i' : escape;
      at += escape.length;
    } else {
      out += isTurkishI(ch.charCodeAt(0)) ? 'i' : ch;
      at += 1;
    }
  }
  return out;
}

/** Where the character class opening at `start` ends (after its `]`): a `]` first is literal, escapes and `[:name:]` are skipped. */
function classEnd(source: string, start: number): number {
  let at = start + 1;
  if (source[at] === '^') at += 1;
  if (source[at] === ']') at += 1;
  while (at < source.length && source[at] !== ']') {
    if (source[at] === '\\') at += ESCAPE.exec(source.slice(at, at + 64))?.[0].length ?? 1;
    else if (source.startsWith('[:', at) && source.indexOf(':]', at + 2) >= 0) at = source.indexOf(':]', at + 2) + 2;
    else at += 1;
  }
  return at + 1;
}
