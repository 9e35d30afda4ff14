// What the formatting parsers share: the result shape, the error the service words as "can't parse
// entities: …", byte offsets (the service counts them in UTF-8), link checking and the entity order.
import type { MessageEntity } from '@grammyjs/types';

/** Text as the user sees it, with its entities (offsets and lengths in UTF-16 code units). */
export interface ParsedText {
  text: string;
  entities: MessageEntity[];
}

/** Bad markup; `message` is the part after "Bad Request: can't parse entities: ". */
export class EntityParseError extends Error {
  override readonly name = 'EntityParseError';
}

/** The UTF-8 byte offset of the UTF-16 index `index` in `text` (what the service's messages quote). */
export function byteOffset(text: string, index: number): number {
  return Buffer.byteLength(text.slice(0, index), 'utf8');
}

const LINK_SCHEMES = new Set(['http:', 'https:', 'tg:', 'ton:', 'tonsite:', 'mailto:']);

/**
 * The link a text_link entity keeps, or undefined when the service would drop the entity: a URL
 * without a scheme gets http://, and the address is normalised (`example.com` → `http://example.com/`).
 */
export function checkedLink(raw: string): string | undefined {
  const link = raw.trim();
  if (link === '' || /\s/.test(link)) return undefined;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(link) ? link : `http://${link}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return undefined;
  }
  if (!LINK_SCHEMES.has(url.protocol)) return undefined;
  if ((url.protocol === 'http:' || url.protocol === 'https:') && !/^[^.\s]+(\.[^.\s]+)*$/.test(url.hostname)) return undefined;
  return url.href;
}

/** The service's order: by offset, longer (outer) entities first. */
export function sortEntities(entities: MessageEntity[]): MessageEntity[] {
  return entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
}
