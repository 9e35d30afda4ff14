// Entities the service attaches to a user's text: a `bot_command` at offset 0 when the text starts with a
// command. Offsets and lengths count UTF-16 code units, as in the real API (JavaScript strings already do).
import type { MessageEntity } from '@grammyjs/types';

const COMMAND = /^\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{1,32})?(?=$|\s)/;

export function commandEntities(text: string): MessageEntity[] | undefined {
  const match = COMMAND.exec(text);
  if (!match) return undefined;
  return [{ type: 'bot_command', offset: 0, length: match[0].length }];
}

const MENTION = /(?<![A-Za-z0-9_@])@[A-Za-z0-9_]{5,32}(?![A-Za-z0-9_])/g;

/** `mention` entities for every `@username` in the text (the service marks these in groups). */
export function mentionEntities(text: string): MessageEntity[] {
  return [...text.matchAll(MENTION)].map((match) => ({ type: 'mention', offset: match.index, length: match[0].length }));
}

/** Message length as the sandbox counts it for the 4096 limit: Unicode code points (characters). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
