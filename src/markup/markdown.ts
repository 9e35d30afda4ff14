// The legacy parse_mode Markdown as the service reads it: *bold*, _italic_, `code`, ```language pre```,
// [text](url); no nesting, `\` escapes only _ * ` [. An unclosed entity is a 400:
// "Can't find end of the entity starting at byte offset N".
import type { MessageEntity } from '@grammyjs/types';
import { byteOffset, checkedLink, EntityParseError, sortEntities, type ParsedText } from './parsed-text.js';

const MARKS = '_*`[';
const isSpace = (c: string | undefined): boolean => c === undefined || c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\v';

/** Parses text with parse_mode Markdown; throws EntityParseError with the service's message for bad markup. */
export function parseMarkdown(input: string): ParsedText {
  let text = '';
  const entities: MessageEntity[] = [];
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === '\\' && MARKS.includes(input[i + 1] ?? '\\')) {
      text += input[++i];
      continue;
    }
    if (!MARKS.includes(c)) {
      text += c;
      continue;
    }
    const begin = i;
    const endMark = c === '[' ? ']' : c;
    i++;
    let pre = false;
    let language = '';
    if (c === '`' && input[i] === '`' && input[i + 1] === '`') {
      i += 2;
      pre = true;
      let languageEnd = i;
      while (languageEnd < input.length && !isSpace(input[languageEnd]) && input[languageEnd] !== '`') languageEnd++;
      if (i !== languageEnd && languageEnd < input.length && input[languageEnd] !== '`') {
        language = input.slice(i, languageEnd);
        i = languageEnd;
      }
      if (input[i] === '\n' || input[i] === '\r') {
        const pair = (input[i + 1] === '\n' || input[i + 1] === '\r') && input[i] !== input[i + 1];
        i += pair ? 2 : 1;
      }
    }
    const offset = text.length;
    while (i < input.length && (input[i] !== endMark || (pre && !(input[i + 1] === '`' && input[i + 2] === '`')))) text += input[i++];
    if (i >= input.length) throw new EntityParseError(`Can't find end of the entity starting at byte offset ${byteOffset(input, begin)}`);
    const length = text.length - offset;
    if (length > 0) {
      const entity = entityFor(c, pre, language, offset, length, input, begin, i);
      if (entity.entity) entities.push(entity.entity);
      i = entity.end;
    }
    if (pre) i += 2;
  }
  return { text, entities: sortEntities(entities) };
}

function entityFor(
  mark: string,
  pre: boolean,
  language: string,
  offset: number,
  length: number,
  input: string,
  begin: number,
  i: number,
): { entity: MessageEntity | undefined; end: number } {
  switch (mark) {
    case '_':
      return { entity: { type: 'italic', offset, length }, end: i };
    case '*':
      return { entity: { type: 'bold', offset, length }, end: i };
    case '`':
      if (!pre) return { entity: { type: 'code', offset, length }, end: i };
      return { entity: language !== '' ? { type: 'pre', offset, length, language } : { type: 'pre', offset, length }, end: i };
    default: {
      let url = input.slice(begin + 1, i);
      if (input[i + 1] === '(') {
        i += 2;
        url = '';
        while (i < input.length && input[i] !== ')') url += input[i++];
      }
      const checked = checkedLink(url);
      return { entity: checked === undefined ? undefined : { type: 'text_link', offset, length, url: checked }, end: i };
    }
  }
}
