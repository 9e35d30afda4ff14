// parse_mode MarkdownV2 as the service reads it: *bold*, _italic_, __underline__, ~strike~, ||spoiler||,
// `code`, ```language pre```, [text](url), ![emoji](tg://emoji?id=…), > blockquotes (**> … || expandable);
// `\` escapes any ASCII character. Every other reserved character must be escaped, or the service
// answers 400 "Character '.' is reserved and must be escaped with the preceding '\'".
import type { MessageEntity } from '@grammyjs/types';
import { byteOffset, checkedLink, EntityParseError, sortEntities, type ParsedText } from './parsed-text.js';

type Kind = 'Bold' | 'Italic' | 'Underline' | 'Strikethrough' | 'Spoiler' | 'Code' | 'Pre' | 'PreCode' | 'TextUrl' | 'CustomEmoji' | 'BlockQuote';

interface Open {
  kind: Kind;
  argument: string;
  /** Output offset (UTF-16) where the entity's text starts. */
  offset: number;
  /** Input index of the markup that opened it (reported as a byte offset). */
  inputIndex: number;
}

const RESERVED = '_*[]()~`>#+-=|{}.!\n';
const TYPES: Partial<Record<Kind, MessageEntity['type']>> = {
  Bold: 'bold',
  Italic: 'italic',
  Underline: 'underline',
  Strikethrough: 'strikethrough',
  Spoiler: 'spoiler',
  Code: 'code',
  Pre: 'pre',
};

const isSpace = (c: string | undefined): boolean => c === undefined || c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\v';
const escapable = (c: string | undefined): boolean => c !== undefined && c.charCodeAt(0) > 0 && c.charCodeAt(0) <= 126;

/** Whether the character at `i` closes the innermost open entity. */
function closes(open: Open, input: string, i: number): boolean {
  const c = input[i];
  switch (open.kind) {
    case 'Bold':
      return c === '*';
    case 'Italic':
      return c === '_' && input[i + 1] !== '_';
    case 'Code':
      return c === '`';
    case 'Pre':
    case 'PreCode':
      return c === '`' && input[i + 1] === '`' && input[i + 2] === '`';
    case 'TextUrl':
    case 'CustomEmoji':
      return c === ']';
    case 'Underline':
      return c === '_' && input[i + 1] === '_';
    case 'Strikethrough':
      return c === '~';
    case 'Spoiler':
      return c === '|' && input[i + 1] === '|';
    default:
      return false;
  }
}

/** Parses text with parse_mode MarkdownV2; throws EntityParseError with the service's message for bad markup. */
export function parseMarkdownV2(input: string): ParsedText {
  const state = { text: '', entities: [] as MessageEntity[], open: [] as Open[], blockquote: false, lineStart: true };
  const reserved = (c: string) => new EntityParseError(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
  const cantFindEnd = (open: Open) => new EntityParseError(`Can't find end of ${open.kind} entity at byte offset ${byteOffset(input, open.inputIndex)}`);

  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === '\\' && escapable(input[i + 1])) {
      i++;
      state.text += input[i];
      if (input[i] !== '\r') state.lineStart = input[i] === '\n';
      continue;
    }
    const top = state.open.at(-1);
    const inCode = top !== undefined && (top.kind === 'Code' || top.kind === 'Pre' || top.kind === 'PreCode');
    if (!(inCode ? '`' : RESERVED).includes(c)) {
      state.text += c;
      if (c !== '\r') state.lineStart = false;
      continue;
    }
    const endsQuote = state.blockquote && c === '\n' && input[i + 1] !== '>';
    if (top === undefined || !(endsQuote || closes(top, input, i))) {
      i = openEntity(input, i, state, reserved);
      continue;
    }
    // The end of the innermost entity (or of the blockquote, at a line that does not start with '>').
    if (c === '\n' && top.kind !== 'BlockQuote') {
      const expandableMark = top.kind === 'Spoiler' && top.inputIndex === i - 2;
      if (!expandableMark) throw cantFindEnd(top);
      state.open.pop();
      const quote = state.open.at(-1)!;
      if (quote.kind !== 'BlockQuote') throw cantFindEnd(quote);
      quote.argument = 'expandable';
    }
    i = closeEntity(input, i, state);
  }
  if (state.blockquote) {
    let top = state.open.at(-1)!;
    if (top.kind === 'Spoiler' && top.inputIndex === input.length - 2) {
      state.open.pop();
      top = state.open.at(-1)!;
      top.argument = 'expandable';
    }
    if (top.kind === 'BlockQuote') {
      state.open.pop();
      if (state.text.length > top.offset) state.entities.push(quoteEntity(top, state.text.length));
    }
  }
  if (state.open.length > 0) throw cantFindEnd(state.open.at(-1)!);
  return { text: state.text, entities: sortEntities(state.entities) };
}

interface State {
  text: string;
  entities: MessageEntity[];
  open: Open[];
  blockquote: boolean;
  lineStart: boolean;
}

/** Opens the entity whose markup starts at `i`; returns the index of the markup's last character. */
function openEntity(input: string, i: number, state: State, reserved: (c: string) => EntityParseError): number {
  const c = input[i]!;
  const start = i;
  let kind: Kind;
  let argument = '';
  switch (c) {
    case '_':
      kind = input[i + 1] === '_' ? 'Underline' : 'Italic';
      if (kind === 'Underline') i++;
      break;
    case '*':
      kind = 'Bold';
      break;
    case '~':
      kind = 'Strikethrough';
      break;
    case '|':
      if (input[i + 1] !== '|') throw reserved(c);
      kind = 'Spoiler';
      i++;
      break;
    case '[':
      kind = 'TextUrl';
      break;
    case '`':
      if (input[i + 1] === '`' && input[i + 2] === '`') {
        ({ kind, argument, i } = openPre(input, i + 3));
      } else {
        kind = 'Code';
      }
      break;
    case '!':
      if (input[i + 1] !== '[') throw reserved(c);
      kind = 'CustomEmoji';
      i++;
      break;
    case '\n':
      state.text += '\n';
      state.lineStart = true;
      return i;
    case '>':
      if (!state.lineStart) throw reserved(c);
      // A '>' continuing the open blockquote only marks the line.
      if (state.blockquote) return i;
      kind = 'BlockQuote';
      state.blockquote = true;
      break;
    default:
      throw reserved(c);
  }
  state.open.push({ kind, argument, offset: state.text.length, inputIndex: start });
  return i;
}

/** After ``` : an optional language up to the first space or newline, then one newline is skipped. */
function openPre(input: string, i: number): { kind: Kind; argument: string; i: number } {
  let kind: Kind = 'Pre';
  let argument = '';
  let languageEnd = i;
  while (languageEnd < input.length && !isSpace(input[languageEnd]) && input[languageEnd] !== '`') languageEnd++;
  if (i !== languageEnd && languageEnd < input.length && input[languageEnd] !== '`') {
    kind = 'PreCode';
    argument = input.slice(i, languageEnd);
    i = languageEnd;
  }
  if (input[i] === '\n' || input[i] === '\r') {
    const pair = (input[i + 1] === '\n' || input[i + 1] === '\r') && input[i] !== input[i + 1];
    i += pair ? 2 : 1;
  }
  return { kind, argument, i: i - 1 };
}

/** Closes the innermost entity at the markup starting at `i`; returns the index of the markup's last character. */
function closeEntity(input: string, i: number, state: State): number {
  const top = state.open.at(-1)!;
  let skip = state.text.length === top.offset;
  let entity: MessageEntity | undefined;
  const offset = top.offset;
  const length = () => state.text.length - offset;
  switch (top.kind) {
    case 'Underline':
    case 'Spoiler':
      i++;
      break;
    case 'Pre':
    case 'PreCode':
      i += 2;
      break;
    case 'TextUrl':
    case 'CustomEmoji': {
      let url = state.text.slice(offset);
      if (input[i + 1] === '(') {
        const urlStart = i + 2;
        url = '';
        i = urlStart;
        while (i < input.length && input[i] !== ')') {
          if (input[i] === '\\' && escapable(input[i + 1])) i++;
          url += input[i++];
        }
        if (input[i] !== ')') throw new EntityParseError(`Can't find end of a URL at byte offset ${byteOffset(input, urlStart)}`);
      } else if (top.kind === 'CustomEmoji') {
        throw new EntityParseError('The entity must contain a tg://emoji or tg://time URL');
      }
      if (top.kind === 'CustomEmoji') {
        const id = /^tg:\/\/emoji\?id=([1-9]\d{0,18})$/.exec(url)?.[1];
        if (id === undefined) throw new EntityParseError('Invalid tg://emoji or tg://time URL specified');
        entity = { type: 'custom_emoji', offset, length: length(), custom_emoji_id: id };
      } else {
        const checked = checkedLink(url);
        if (checked === undefined) skip = true;
        else entity = { type: 'text_link', offset, length: length(), url: checked };
      }
      break;
    }
    case 'BlockQuote':
      state.blockquote = false;
      state.open.pop();
      if (state.text.length > offset) state.entities.push(quoteEntity(top, state.text.length));
      state.text += input[i];
      state.lineStart = true;
      return i;
    default:
      break;
  }
  if (!skip) {
    if (top.kind === 'PreCode') entity = { type: 'pre', offset, length: length(), language: top.argument };
    entity ??= { type: TYPES[top.kind]!, offset, length: length() } as MessageEntity;
    state.entities.push(entity);
  }
  state.open.pop();
  return i;
}

function quoteEntity(quote: Open, end: number): MessageEntity {
  return { type: quote.argument === 'expandable' ? 'expandable_blockquote' : 'blockquote', offset: quote.offset, length: end - quote.offset } as MessageEntity;
}
