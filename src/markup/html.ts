// parse_mode HTML as the service reads it: the tags b/strong, i/em, u/ins, s/strike/del, tg-spoiler and
// span class="tg-spoiler", a href, code (class="language-…" inside pre), pre, blockquote [expandable],
// tg-emoji; the entities &lt; &gt; &amp; &quot; and numeric ones. Anything else is a 400 with the
// service's wording, e.g. `Unsupported start tag "div" at byte offset 0`.
import type { MessageEntity } from '@grammyjs/types';
import { byteOffset, checkedLink, EntityParseError, sortEntities, type ParsedText } from './parsed-text.js';

const SUPPORTED_TAGS = new Set([
  'a',
  'b',
  'strong',
  'i',
  'em',
  's',
  'strike',
  'del',
  'u',
  'ins',
  'tg-spoiler',
  'tg-emoji',
  'tg-time',
  'span',
  'pre',
  'code',
  'blockquote',
]);
const SIMPLE_TYPES: Record<string, MessageEntity['type']> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
};

interface OpenTag {
  name: string;
  argument: string;
  /** Where the tag's content starts in the output (UTF-16). */
  offset: number;
}

// A Map, not an object literal: `&toString;` must not find Object.prototype.toString.
const NAMED_REFERENCES = new Map([
  ['lt', 60],
  ['gt', 62],
  ['amp', 38],
  ['quot', 34],
]);

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\v' || c === '\0';

/** The character an `&…` reference at `start` stands for and where it ends, or undefined when it is a literal `&`. */
function decodeReference(input: string, start: number): { char: string; end: number; surrogate: boolean } | undefined {
  let end = start + 1;
  let code = 0;
  if (input[end] === '#') {
    end++;
    const hex = input[end] === 'x';
    if (hex) end++;
    const digits = hex ? /[0-9a-fA-F]/ : /[0-9]/;
    while (end < input.length && digits.test(input[end]!)) {
      code = Math.min(code * (hex ? 16 : 10) + parseInt(input[end]!, 16), 0x7fffffff);
      end++;
    }
    if (code === 0 || code >= 0x10ffff || end - start >= 10) return undefined;
  } else {
    while (end < input.length && /[A-Za-z]/.test(input[end]!)) end++;
    const found = NAMED_REFERENCES.get(input.slice(start + 1, end));
    if (found === undefined) return undefined;
    code = found;
  }
  if (input[end] === ';') end++;
  return { char: String.fromCodePoint(code), end, surrogate: code >= 0xd800 && code <= 0xdfff };
}

/** Parses text with parse_mode HTML; throws EntityParseError with the service's message for bad markup. */
export function parseHtml(input: string): ParsedText {
  let text = '';
  const entities: MessageEntity[] = [];
  const open: OpenTag[] = [];
  let recheckSurrogates = false;
  const fail = (message: string): never => {
    throw new EntityParseError(message);
  };
  const at = (index: number): number => byteOffset(input, index);

  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '&') {
      const reference = decodeReference(input, i);
      if (reference) {
        text += reference.char;
        recheckSurrogates ||= reference.surrogate;
        i = reference.end;
        continue;
      }
    }
    if (c !== '<') {
      text += c;
      i++;
      continue;
    }
    const begin = i++;
    if (input[i] !== '/') {
      const tag = readStartTag(input, begin, fail, at);
      open.push({ name: tag.name, argument: tag.argument, offset: text.length });
      i = tag.end;
      continue;
    }
    if (open.length === 0) fail(`Unexpected end tag at byte offset ${at(begin)}`);
    while (i < input.length && !isSpace(input[i]) && input[i] !== '>') i++;
    const endName = input.slice(begin + 2, i).toLowerCase();
    while (i < input.length && isSpace(input[i])) i++;
    if (input[i] !== '>') fail(`Unclosed end tag at byte offset ${at(begin)}`);
    i++;
    const top = open.pop()!;
    if (endName !== '' && endName !== top.name) fail(`Unmatched end tag at byte offset ${at(begin)}, expected "</${top.name}>", found "</${endName}>"`);
    if (text.length > top.offset) closeTag(top, text, entities);
  }
  if (open.length > 0) fail(`Can't find end tag corresponding to start tag "${open.at(-1)!.name}"`);
  if (recheckSurrogates && /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text)) {
    fail('Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units');
  }
  for (const entity of entities) if (entity.type === 'code') delete (entity as { language?: string }).language;
  return { text, entities: sortEntities(entities) };
}

/** Reads `<name attr="value" …>` from `begin`; returns the tag, the argument that matters and the index after `>`. */
function readStartTag(
  input: string,
  begin: number,
  fail: (message: string) => never,
  at: (index: number) => number,
): { name: string; argument: string; end: number } {
  let i = begin + 1;
  while (i < input.length && !isSpace(input[i]) && input[i] !== '>') i++;
  if (i >= input.length) fail(`Unclosed start tag at byte offset ${at(begin)}`);
  const name = input.slice(begin + 1, i).toLowerCase();
  if (!SUPPORTED_TAGS.has(name)) fail(`Unsupported start tag "${name}" at byte offset ${at(begin)}`);
  let argument = '';
  while (input[i] !== '>') {
    while (i < input.length && isSpace(input[i])) i++;
    if (input[i] === '>') break;
    const nameStart = i;
    while (i < input.length && !isSpace(input[i]) && !'=>/"\''.includes(input[i]!)) i++;
    const attribute = input.slice(nameStart, i);
    if (attribute === '') fail(`Empty attribute name in the tag "${name}" at byte offset ${at(begin)}`);
    while (i < input.length && isSpace(input[i])) i++;
    if (input[i] !== '=') {
      if (i >= input.length) fail(`Unclosed start tag "${name}" at byte offset ${at(begin)}`);
      if (name === 'blockquote' && attribute === 'expandable') argument = '1';
      continue;
    }
    i++;
    while (i < input.length && isSpace(input[i])) i++;
    if (i >= input.length) fail(`Unclosed start tag "${name}" at byte offset ${at(begin)}`);
    let value = '';
    if (input[i] !== '"' && input[i] !== "'") {
      // A name token: letters, digits, periods and hyphens, not case sensitive.
      const tokenStart = i;
      while (i < input.length && /[A-Za-z0-9.-]/.test(input[i]!)) i++;
      value = input.slice(tokenStart, i).toLowerCase();
      if (!isSpace(input[i]) && input[i] !== '>') fail(`Unexpected end of name token at byte offset ${at(tokenStart)}`);
    } else {
      const quote = input[i++];
      while (i < input.length && input[i] !== quote) {
        const reference = input[i] === '&' ? decodeReference(input, i) : undefined;
        if (reference) {
          value += reference.char;
          i = reference.end;
        } else {
          value += input[i++];
        }
      }
      if (input[i] === quote) i++;
    }
    if (i >= input.length) fail(`Unclosed start tag at byte offset ${at(begin)}`);
    argument = attributeArgument(name, attribute, value) ?? argument;
  }
  if (name === 'span' && argument !== 'spoiler') fail(`Tag "span" must have class "tg-spoiler" at byte offset ${at(begin)}`);
  return { name, argument, end: i + 1 };
}

function attributeArgument(tag: string, attribute: string, value: string): string | undefined {
  if (tag === 'a' && attribute === 'href') return value;
  if (tag === 'code' && attribute === 'class' && value.startsWith('language-')) return value.slice('language-'.length);
  if (tag === 'span' && attribute === 'class' && value.startsWith('tg-')) return value.slice('tg-'.length);
  if (tag === 'tg-emoji' && attribute === 'emoji-id') return value;
  if (tag === 'blockquote' && attribute === 'expandable') return '1';
  return undefined;
}

function closeTag(tag: OpenTag, text: string, entities: MessageEntity[]): void {
  const offset = tag.offset;
  const length = text.length - offset;
  const simple = SIMPLE_TYPES[tag.name];
  if (simple) {
    entities.push({ type: simple, offset, length } as MessageEntity);
    return;
  }
  const last = entities.at(-1) as (MessageEntity & { language?: string }) | undefined;
  const sameRange = last !== undefined && last.offset === offset && last.length === length;
  switch (tag.name) {
    case 'a': {
      const url = checkedLink(tag.argument === '' ? text.slice(offset) : tag.argument);
      if (url !== undefined) entities.push({ type: 'text_link', offset, length, url });
      return;
    }
    case 'pre':
      // <pre><code class="language-x">…</code></pre>: one pre entity with its language.
      if (sameRange && last.type === 'code' && last.language) {
        entities[entities.length - 1] = { type: 'pre', offset, length, language: last.language };
      } else {
        entities.push({ type: 'pre', offset, length });
      }
      return;
    case 'code':
      if (sameRange && last.type === 'pre' && tag.argument !== '') {
        entities[entities.length - 1] = { type: 'pre', offset, length, language: tag.argument };
      } else {
        entities.push({ type: 'code', offset, length, ...(tag.argument !== '' ? { language: tag.argument } : {}) } as MessageEntity);
      }
      return;
    case 'blockquote':
      entities.push({ type: tag.argument !== '' ? 'expandable_blockquote' : 'blockquote', offset, length } as MessageEntity);
      return;
    case 'tg-emoji':
      if (!/^[1-9]\d{0,18}$/.test(tag.argument)) throw new EntityParseError('Invalid custom emoji identifier specified');
      entities.push({ type: 'custom_emoji', offset, length, custom_emoji_id: tag.argument });
      return;
    default:
      // tg-time: shown as its text; the sandbox does not format dates.
      return;
  }
}
