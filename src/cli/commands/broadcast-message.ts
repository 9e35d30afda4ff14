// What `hearsay broadcast` sends, read from the operator's files: the text (`--text-file`, checked against its
// `--parse-mode` as the service would parse it, so a typo in the markup fails here rather than at every
// recipient) and the buttons (`--buttons-file`: rows of buttons as a rule's `buttons:` writes them, each with a
// `text` and a `url` or `data`).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { buttonUrlProblem } from '../../markup/button-url.js';
import { EntityParseError, formatText } from '../../markup/format-text.js';
import type { BroadcastMessage } from '../../pipeline/broadcasts.js';

/** The parse modes as the service spells them, by their lower-case names. */
const PARSE_MODES = { html: 'HTML', markdownv2: 'MarkdownV2', markdown: 'Markdown' } as const;

/** A file that cannot be read or is not what it should be. */
export class MessageInputError extends Error {
  override readonly name = 'MessageInputError';
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new MessageInputError(`cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The message of `--text-file`, `--parse-mode` and `--buttons-file`. */
export function readBroadcastMessage(textFile: string, parseMode: string | undefined, buttonsFile: string | undefined): BroadcastMessage {
  const text = readText(textFile, '--text-file').replace(/\s+$/, '');
  if (text.trim() === '') throw new MessageInputError(`--text-file ${textFile} is empty`);
  let mode: BroadcastMessage['parseMode'];
  if (parseMode !== undefined) {
    mode = PARSE_MODES[parseMode.toLowerCase() as keyof typeof PARSE_MODES];
    if (!mode) throw new MessageInputError(`--parse-mode must be HTML, MarkdownV2 or Markdown, not '${parseMode}'`);
    try {
      formatText(text, mode);
    } catch (error) {
      if (!(error instanceof EntityParseError)) throw error;
      throw new MessageInputError(`${textFile} is not valid ${mode}: ${error.message}`);
    }
  }
  return { text, ...(mode ? { parseMode: mode } : {}), ...(buttonsFile !== undefined ? { replyMarkup: readButtons(buttonsFile) } : {}) };
}

/** The inline keyboard of a buttons file. */
function readButtons(path: string): Record<string, unknown> {
  let rows: unknown;
  try {
    rows = parse(readText(path, '--buttons-file'));
  } catch (error) {
    if (error instanceof MessageInputError) throw error;
    throw new MessageInputError(`${path} is not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (rows !== null && typeof rows === 'object' && !Array.isArray(rows) && 'buttons' in rows) rows = (rows as { buttons: unknown }).buttons;
  const shape = `write rows of buttons, e.g. [[{ text: "Shop", url: "https://example.com" }]]`;
  if (!Array.isArray(rows) || rows.length === 0) throw new MessageInputError(`${path}: ${shape}`);
  const keyboard = rows.map((row: unknown, r) => {
    if (!Array.isArray(row) || row.length === 0) throw new MessageInputError(`${path}: row ${r + 1} is not a list of buttons; ${shape}`);
    return row.map((button: unknown, b) => buttonOf(button, `${path}: row ${r + 1}, button ${b + 1}`));
  });
  return { inline_keyboard: keyboard };
}

function buttonOf(button: unknown, where: string): Record<string, string> {
  const { text, url, data } = (button ?? {}) as { text?: unknown; url?: unknown; data?: unknown };
  if (typeof text !== 'string' || text.trim() === '') throw new MessageInputError(`${where}: a button needs a text`);
  if ((url === undefined) === (data === undefined)) throw new MessageInputError(`${where}: a button has either a url or data`);
  if (url !== undefined) {
    const problem = typeof url === 'string' ? buttonUrlProblem(url) : 'not a text';
    if (problem) throw new MessageInputError(`${where}: url '${String(url)}': ${problem}`);
    return { text, url: url as string };
  }
  const bytes = typeof data === 'string' ? Buffer.byteLength(data) : 0;
  if (bytes < 1 || bytes > 64) throw new MessageInputError(`${where}: data must be 1 to 64 bytes`);
  return { text, callback_data: data as string };
}
