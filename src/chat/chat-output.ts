// What `hearsay chat` prints for what the bot did: its messages (`bot> …`), edits and answers to presses, the
// buttons as numbered choices (a link button shows its address), and, on request, the why of each answer.
import type { InlineKeyboardButton, KeyboardButton } from '@grammyjs/types';
import type { RecordedOutput } from '../conversation-tests/bot-api-double.js';
import { showModeration } from '../conversation-tests/moderation-double.js';
import type { Explanation } from '../pipeline/explanation.js';
import { explanationLines } from '../pipeline/explanation-text.js';

/** A button the person can press by its number: an inline button (by its data, else its text) or a reply-keyboard label. */
export interface Choice {
  readonly by: 'text' | 'data';
  readonly value: string;
}

export interface OutputView {
  /** The chat the person is in: messages elsewhere (another chat, a later send) say where they went. */
  readonly chatId: number;
  readonly chatName: (chatId: number) => string;
  readonly explanations: readonly Explanation[];
  readonly shownPath?: (file: string) => string;
}

const INDENT = '     ';

/** The text, its first line after `prefix`, the others indented under it. */
function block(prefix: string, text: string): string[] {
  return text.split('\n').map((line, i) => (i === 0 ? `${prefix}${line}` : `${INDENT}${line}`));
}

/** The numbered buttons of a markup, continuing from `choices`, and the line showing them. */
function buttonLines(markup: unknown, choices: Choice[]): string[] {
  if (markup === null || typeof markup !== 'object') return [];
  const lines: string[] = [];
  if ('inline_keyboard' in markup) {
    for (const row of (markup as { inline_keyboard: InlineKeyboardButton[][] }).inline_keyboard) {
      const shown = row.map((button) => {
        if ('url' in button && button.url) return `[link] ${button.text}: ${button.url}`;
        const data = 'callback_data' in button ? button.callback_data : undefined;
        choices.push(data !== undefined ? { by: 'data', value: data } : { by: 'text', value: button.text });
        return `[${choices.length}] ${button.text}`;
      });
      lines.push(`${INDENT}${shown.join('   ')}`);
    }
  }
  if ('keyboard' in markup) {
    for (const row of (markup as { keyboard: Array<Array<KeyboardButton | string>> }).keyboard) {
      const shown = row.map((button) => {
        const text = typeof button === 'string' ? button : button.text;
        choices.push({ by: 'text', value: text });
        return `[${choices.length}] ${text}`;
      });
      lines.push(`${INDENT}keyboard: ${shown.join('   ')}`);
    }
  }
  return lines;
}

/**
 * The lines for `outputs`, and the choices the last of them in the person's chat offers (undefined when none of
 * them was in that chat: the choices shown before still hold).
 */
export function outputLines(outputs: readonly RecordedOutput[], view: OutputView): { lines: string[]; choices?: Choice[] } {
  const lines: string[] = [];
  let choices: Choice[] | undefined;
  for (const output of outputs) {
    if (output.kind === 'answer') {
      if (output.text) lines.push(`bot> (${output.showAlert ? 'alert' : 'answer to the press'}) ${output.text}`);
      continue;
    }
    const here = output.chatId === view.chatId;
    const prefix = here ? 'bot> ' : `bot (in ${view.chatName(output.chatId)})> `;
    if (output.kind !== 'message' && output.kind !== 'edit') {
      lines.push(`${prefix}(${showModeration(output)})`);
      continue;
    }
    lines.push(...block(output.kind === 'edit' ? `${prefix}(edited) ` : prefix, output.text));
    const offered: Choice[] = [];
    lines.push(...buttonLines(output.replyMarkup, offered));
    if (here) choices = offered;
  }
  for (const explanation of view.explanations) {
    for (const line of explanationLines(explanation, view.shownPath)) lines.push(`  ? ${line}`);
  }
  return { lines, ...(choices !== undefined ? { choices } : {}) };
}
