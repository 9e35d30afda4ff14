// Entities the service finds by itself in any message text: /commands, links, @mentions, e-mail
// addresses and #hashtags (it marks them whatever the parse mode). Not inside code, pre or a text link.
import type { MessageEntity } from '@grammyjs/types';
import { sortEntities } from './parsed-text.js';

// Without a scheme, only names under common top-level domains are links (so `hearsay.yaml` is not one).
const TLDS =
  'com|org|net|io|dev|app|me|info|biz|edu|gov|co|uk|de|fr|ru|es|it|nl|eu|us|ca|au|in|jp|ch|se|no|fi|pl|at|be|dk|ai|tv|xyz|shop|store|online|site|tech';

const FINDERS: Array<{ type: MessageEntity['type']; pattern: RegExp }> = [
  { type: 'bot_command', pattern: /(?<![\p{L}\p{N}_/@.])\/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\p{L}\p{N}_/@])/gu },
  {
    type: 'url',
    pattern: new RegExp(
      `(?<![\\p{L}\\p{N}_@./])(?:https?://(?:[\\p{L}\\p{N}-]+\\.)*[\\p{L}\\p{N}-]+|(?:[\\p{L}\\p{N}-]+\\.)+(?:${TLDS})(?![\\p{L}\\p{N}-]))(?::\\d{1,5})?(?:[/?#][^\\s<>"]*)?`,
      'giu',
    ),
  },
  { type: 'email', pattern: /(?<![\p{L}\p{N}_.+-])[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}(?![\p{L}\p{N}_])/gu },
  { type: 'mention', pattern: /(?<![\p{L}\p{N}_@])@[A-Za-z][A-Za-z0-9_]{3,31}(?![\p{L}\p{N}_@])/gu },
  { type: 'hashtag', pattern: /(?<![\p{L}\p{N}_#])#[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*/gu },
];

const OPAQUE = new Set<MessageEntity['type']>(['code', 'pre', 'text_link', 'url', 'email', 'bot_command', 'mention']);

/** `entities` plus the entities the service detects in `text`, in the service's order. */
export function withDetectedEntities(text: string, entities: readonly MessageEntity[]): MessageEntity[] {
  const taken: Array<[number, number]> = entities.filter((e) => OPAQUE.has(e.type)).map((e) => [e.offset, e.offset + e.length]);
  const found: MessageEntity[] = [];
  for (const { type, pattern } of FINDERS) {
    for (const match of text.matchAll(pattern)) {
      let value = match[0];
      // A sentence's final punctuation is not part of a link.
      if (type === 'url') value = value.replace(/[.,;:!?)\]'"]+$/, '');
      const start = match.index;
      const end = start + value.length;
      if (value.length < 2 || taken.some(([from, to]) => start < to && end > from)) continue;
      taken.push([start, end]);
      found.push({ type, offset: start, length: value.length } as MessageEntity);
    }
  }
  return sortEntities([...entities, ...found]);
}
