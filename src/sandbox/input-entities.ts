// Formatted text as the real service takes it: with parse_mode the markup is parsed (and any entities given
// are ignored); without it the `entities` (or `caption_entities`) given are kept, checked as the service
// checks them, cut to the text, and joined by the entities the service detects by itself. A malformed
// entities JSON text is ignored, as the service ignores it.
import type { MessageEntity } from '@grammyjs/types';
import { withDetectedEntities } from '../markup/auto-entities.js';
import { EntityParseError, formatText, PARSE_MODES, type ParsedText } from '../markup/format-text.js';
import { sortEntities } from '../markup/parsed-text.js';
import { badRequest } from './api-failure.js';
import { characterCount } from './text-entities.js';

/** The entity types a bot may give; the rest (mention, url, …) the service finds itself and drops when given. */
const GIVEN_TYPES = new Set([
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'spoiler',
  'code',
  'pre',
  'text_link',
  'text_mention',
  'custom_emoji',
  'blockquote',
  'expandable_blockquote',
]);
const DETECTED_TYPES = new Set(['mention', 'hashtag', 'cashtag', 'bot_command', 'url', 'email', 'phone_number', 'bank_card_number']);

/** The longest text the service reads at all, in UTF-8 bytes before parsing (4096 characters is a later check). */
const MAX_TEXT_BYTES = 1 << 15;

/** The longest caption the service takes, in characters after parsing. */
export const MAX_CAPTION_LENGTH = 1024;

/**
 * `text` formatted by `parseMode` or, without one, with the `entities` given (JSON or its text); bad markup or a
 * bad entity is the service's 400.
 */
export function formattedText(text: string, parseMode: string, rawEntities: unknown): ParsedText {
  if (Buffer.byteLength(text, 'utf8') > MAX_TEXT_BYTES) throw badRequest('text is too long');
  if (!PARSE_MODES.has(parseMode.toLowerCase()) && parseMode.toLowerCase() !== 'none') throw badRequest('unsupported parse_mode');
  if (text !== '' && parseMode !== '' && parseMode.toLowerCase() !== 'none') {
    try {
      return formatText(text, parseMode);
    } catch (error) {
      if (error instanceof EntityParseError) throw badRequest(`can't parse entities: ${error.message}`);
      throw error;
    }
  }
  const given = givenEntities(rawEntities, text);
  return { text, entities: withDetectedEntities(text, given) };
}

/** A caption (`caption`, `parse_mode`, `caption_entities` of `source`) as the message will carry it; none when empty. */
export function captionOf(source: Record<string, unknown>): { caption?: string; caption_entities?: MessageEntity[] } {
  const raw = source.caption;
  const text = typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : '';
  const mode = typeof source.parse_mode === 'string' ? source.parse_mode : '';
  const parsed = formattedText(text, mode, source.caption_entities);
  if (characterCount(parsed.text) > MAX_CAPTION_LENGTH) throw badRequest('message caption is too long');
  if (parsed.text === '') return {};
  return parsed.entities.length > 0 ? { caption: parsed.text, caption_entities: parsed.entities } : { caption: parsed.text };
}

function givenEntities(raw: unknown, text: string): MessageEntity[] {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(value)) return [];
  const length = text.length;
  const kept: MessageEntity[] = [];
  for (const item of value) {
    const entity = readEntity(item);
    if (!entity) continue;
    // Cut to the text: an entity past its end is dropped, one that runs over it is shortened.
    const end = Math.min(entity.offset + entity.length, length);
    if (entity.offset < 0 || entity.offset >= length || end <= entity.offset) continue;
    kept.push({ ...entity, length: end - entity.offset });
  }
  return sortEntities(kept);
}

/** One given entity, or undefined for a type the service detects itself; a malformed one is the service's 400. */
function readEntity(item: unknown): MessageEntity | undefined {
  const fail = (why: string) => badRequest(`can't parse MessageEntity: ${why}`);
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw fail('expected an Object');
  const entity = item as Record<string, unknown>;
  const offset = integerField(entity, 'offset', fail);
  const length = integerField(entity, 'length', fail);
  if (entity.type === undefined) throw fail(`Can't find field "type"`);
  if (typeof entity.type !== 'string') throw fail(`Field "type" must be of type String`);
  if (entity.type === '') throw fail('Type is not specified');
  if (DETECTED_TYPES.has(entity.type)) return undefined;
  if (!GIVEN_TYPES.has(entity.type)) throw fail('Unsupported type specified');
  const base = { type: entity.type, offset, length } as MessageEntity;
  switch (entity.type) {
    case 'pre':
      return typeof entity.language === 'string' && entity.language !== '' ? ({ ...base, language: entity.language } as MessageEntity) : base;
    case 'text_link':
      if (typeof entity.url !== 'string') throw fail(`Can't find field "url"`);
      return { ...base, url: entity.url } as MessageEntity;
    case 'text_mention': {
      const user = entity.user as { id?: unknown } | undefined;
      if (typeof user !== 'object' || user === null) throw fail(`Can't find field "user"`);
      if (typeof user.id !== 'number') throw fail(`Can't find field "id"`);
      return { ...base, user } as MessageEntity;
    }
    case 'custom_emoji':
      if (entity.custom_emoji_id === undefined) throw fail(`Can't find field "custom_emoji_id"`);
      return { ...base, custom_emoji_id: String(entity.custom_emoji_id) } as MessageEntity;
    default:
      return base;
  }
}

function integerField(entity: Record<string, unknown>, name: string, fail: (why: string) => Error): number {
  const value = entity[name];
  if (value === undefined) throw fail(`Can't find field "${name}"`);
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number)) throw fail(`Field "${name}" must be a valid Number`);
  return number;
}
