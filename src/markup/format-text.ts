// A bot's message text as the service stores it: parsed according to parse_mode (HTML, MarkdownV2 or
// the legacy Markdown) into plain text and entities, plus the entities the service detects by itself.
import type { MessageEntity } from '@grammyjs/types';
import { withDetectedEntities } from './auto-entities.js';
import { parseHtml } from './html.js';
import { parseMarkdown } from './markdown.js';
import { parseMarkdownV2 } from './markdown-v2.js';
import type { ParsedText } from './parsed-text.js';

export { EntityParseError, type ParsedText } from './parsed-text.js';

/** The parse modes the service accepts, lower-cased; '' is plain text. */
export const PARSE_MODES: ReadonlySet<string> = new Set(['', 'html', 'markdownv2', 'markdown']);

/**
 * Parses `text` with `parseMode` (case-insensitive; '' for none) and adds the detected entities.
 * Throws EntityParseError for bad markup, worded as the service words it after "can't parse entities: ".
 */
export function formatText(text: string, parseMode: string): ParsedText {
  const parsed = parseWith(text, parseMode.toLowerCase());
  return { text: parsed.text, entities: withDetectedEntities(parsed.text, parsed.entities) };
}

function parseWith(text: string, mode: string): { text: string; entities: MessageEntity[] } {
  switch (mode) {
    case 'html':
      return parseHtml(text);
    case 'markdownv2':
      return parseMarkdownV2(text);
    case 'markdown':
      return parseMarkdown(text);
    default:
      return { text, entities: [] };
  }
}
