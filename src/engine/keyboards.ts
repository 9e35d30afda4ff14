// Keyboards in rules: `buttons` (an inline keyboard under the message) and `keyboard` (a reply keyboard, or
// `remove`), compiled once with their templates and the service's limits checked where they can be known
// (static texts, data and links), and rendered per event into the reply_markup the Bot API takes.
import type { InlineKeyboardButton, InlineKeyboardMarkup, KeyboardButton, ReplyKeyboardMarkup, ReplyKeyboardRemove } from '@grammyjs/types';
import type { InlineKeyboard, ReplyKeyboard } from '../generated/rules-schema.js';
import { buttonUrlProblem } from '../markup/button-url.js';
import { render, type RenderValues } from './render.js';
import { allTranslations, compileText, type TextSource } from './languages.js';
import type { Template, TemplateContext } from './template.js';

/** The service's limits on inline keyboards. */
export const MAX_CALLBACK_DATA_BYTES = 64;
export const MAX_BUTTONS = 100;

/** One inline button: its label and either the data a press sends back or a link. */
export interface ButtonTemplate {
  readonly text: Template;
  readonly data?: Template;
  readonly url?: Template;
}

/** A rule's `buttons`, rows of buttons. */
export interface InlineKeyboardTemplate {
  readonly rows: readonly (readonly ButtonTemplate[])[];
}

/** A rule's `keyboard`: label rows with their options, or the removal of the keyboard shown. */
export type ReplyKeyboardTemplate =
  | {
      readonly kind: 'keyboard';
      readonly rows: readonly (readonly Template[])[];
      readonly oneTime: boolean;
      readonly resize: boolean;
      readonly placeholder?: string;
    }
  | { readonly kind: 'remove' };

/** Reports a problem at a path under the keyboard's key (e.g. [0, 1, 'data']). */
export type KeyboardProblemSink = (path: readonly (string | number)[], message: string, severity?: 'error' | 'warning') => void;

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The service keeps the first 12 buttons of a row and drops the rest; from 9 on, a phone cuts their labels short. */
export const MAX_ROW_BUTTONS = 12;
const WIDE_ROW = 9;

/** A row over 12 buttons is an error (the service would drop the rest), one of 9 to 12 a warning. */
function checkRowWidths(
  rows: readonly (readonly unknown[])[],
  what: string,
  name: string,
  at: (row: number) => (string | number)[],
  report: KeyboardProblemSink,
): void {
  for (const [r, row] of rows.entries()) {
    if (row.length > MAX_ROW_BUTTONS)
      report(
        at(r),
        `row ${r + 1} of the ${what} of ${name} has ${row.length} buttons; the service shows at most ${MAX_ROW_BUTTONS} in a row and drops the rest`,
      );
    else if (row.length >= WIDE_ROW)
      report(
        at(r),
        `row ${r + 1} of the ${what} of ${name} has ${row.length} buttons: on a phone their labels are cut short; 3 or 4 to a row read better`,
        'warning',
      );
  }
}

/** Compiles `buttons`; undefined when a template is broken (reported). Limits known at load time are errors. */
export function compileInlineKeyboard(
  rows: InlineKeyboard,
  context: TemplateContext,
  name: string,
  report: KeyboardProblemSink,
): InlineKeyboardTemplate | undefined {
  let ok = true;
  const template = (source: TextSource, path: (string | number)[], what: string): Template | undefined => {
    const result = compileText(source, context, `${what} of ${name}`, {
      error: (at, message) => report([...path, ...at], message),
      warning: (at, message) => report([...path, ...at], message, 'warning'),
    });
    if (!result) ok = false;
    return result;
  };
  const count = rows.reduce((n, row) => n + row.length, 0);
  if (count > MAX_BUTTONS) report([], `${name} has ${count} buttons; the service takes at most ${MAX_BUTTONS} on one message`);
  checkRowWidths(rows, 'buttons', name, (r) => [r], report);
  const compiled = rows.map((row, r) =>
    row.map((button, c): ButtonTemplate => {
      const where = `button ${JSON.stringify(typeof button.text === 'string' ? button.text : Object.values(button.text)[0])}`;
      const text = template(button.text, [r, c, 'text'], `the text of ${where}`);
      if (text && allTranslations(text).some((t) => t.isStatic && t.source.trim() === ''))
        report([r, c, 'text'], `a button of ${name} has only spaces as its text; the service refuses it`);
      if (button.data !== undefined) {
        const data = template(button.data, [r, c, 'data'], `the data of ${where}`);
        if (data?.isStatic && bytes(button.data) > MAX_CALLBACK_DATA_BYTES)
          report([r, c, 'data'], `the data of ${where} in ${name} is ${bytes(button.data)} bytes; the service takes 1 to ${MAX_CALLBACK_DATA_BYTES} bytes`);
        return { text: text!, ...(data ? { data } : {}) };
      }
      const url = template(button.url!, [r, c, 'url'], `the link of ${where}`);
      const problem = url?.isStatic ? buttonUrlProblem(button.url!) : undefined;
      if (problem !== undefined) report([r, c, 'url'], `the link '${button.url}' of ${where} in ${name} is refused by the service: ${problem}`);
      return { text: text!, ...(url ? { url } : {}) };
    }),
  );
  return ok ? Object.freeze({ rows: compiled }) : undefined;
}

/** Compiles `keyboard`; undefined when a label's template is broken (reported). */
export function compileReplyKeyboard(
  keyboard: ReplyKeyboard,
  context: TemplateContext,
  name: string,
  report: KeyboardProblemSink,
): ReplyKeyboardTemplate | undefined {
  if (keyboard === 'remove') return { kind: 'remove' };
  const options = Array.isArray(keyboard) ? { rows: keyboard } : keyboard;
  const base: (string | number)[] = Array.isArray(keyboard) ? [] : ['rows'];
  let ok = true;
  checkRowWidths(options.rows, 'keyboard', name, (r) => [...base, r], report);
  const rows = options.rows.map((row, r) =>
    row.map((label, c) => {
      const template = compileText(label, context, `a keyboard button of ${name}`, {
        error: (at, message) => report([...base, r, c, ...at], message),
        warning: (at, message) => report([...base, r, c, ...at], message, 'warning'),
      });
      if (!template) {
        ok = false;
        return undefined!;
      }
      if (allTranslations(template).some((t) => t.isStatic && t.source.trim() === ''))
        report([...base, r, c], `a keyboard button of ${name} has only spaces as its text; the service refuses it`);
      return template;
    }),
  );
  if (!ok) return undefined;
  return Object.freeze({
    kind: 'keyboard',
    rows,
    oneTime: options.one_time !== false,
    resize: options.resize !== false,
    ...(options.placeholder !== undefined ? { placeholder: options.placeholder } : {}),
  });
}

/** A label as the service takes it: an empty one (all its values empty) would be refused, so it shows a dash. */
function label(template: Template, values: RenderValues): string {
  const text = render(template, values);
  return text.trim() === '' ? '-' : text;
}

/** Cuts `text` to at most `max` UTF-8 bytes without splitting a character. */
export function cutToBytes(text: string, max: number): string {
  if (bytes(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (bytes(out + ch) > max) break;
    out += ch;
  }
  return out;
}

/**
 * The inline keyboard for one event. Rendered data longer than the service's 64 bytes is cut there (a
 * press then sends the cut data), and empty data becomes '-', so a value never makes the whole message fail.
 */
export function renderInlineKeyboard(keyboard: InlineKeyboardTemplate, values: RenderValues): InlineKeyboardMarkup {
  return {
    inline_keyboard: keyboard.rows.map((row) =>
      row.map((button): InlineKeyboardButton => {
        const text = label(button.text, values);
        if (button.url) return { text, url: render(button.url, values) };
        const data = cutToBytes(render(button.data!, values), MAX_CALLBACK_DATA_BYTES);
        return { text, callback_data: data === '' ? '-' : data };
      }),
    ),
  };
}

/** The reply keyboard (or its removal) for one event. */
export function renderReplyKeyboard(keyboard: ReplyKeyboardTemplate, values: RenderValues): ReplyKeyboardMarkup | ReplyKeyboardRemove {
  if (keyboard.kind === 'remove') return { remove_keyboard: true };
  return {
    keyboard: keyboard.rows.map((row) => row.map((template): KeyboardButton => ({ text: label(template, values) }))),
    ...(keyboard.oneTime ? { one_time_keyboard: true } : {}),
    ...(keyboard.resize ? { resize_keyboard: true } : {}),
    ...(keyboard.placeholder !== undefined ? { input_field_placeholder: keyboard.placeholder } : {}),
  };
}
