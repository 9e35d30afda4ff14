// Reads a `reply_markup` parameter (an object, or its JSON text as form and multipart bodies carry it) the way
// the real service does, with its 400 descriptions: an inline keyboard, a reply keyboard, a keyboard removal or
// a forced reply. Like the service, it drops a button with an empty label (not the message), keeps the first
// 12 buttons of a row, and takes numbers where it expects text (callback_data: 42 is "42"). An object with
// none of these, or whose keyboards end up empty, means no markup at all.
import type { InlineKeyboardButton, KeyboardButton } from '@grammyjs/types';
import { buttonUrlProblem } from '../markup/button-url.js';
import { badRequest } from './api-failure.js';
import type { StoredMarkup } from './message-meta.js';
import type { Params } from './params.js';

type Json = Record<string, unknown>;

const MAX_CALLBACK_DATA_BYTES = 64;
// The real service refuses a markup that is too big ("reply markup is too long"); 100 buttons is its documented size.
const MAX_BUTTONS = 100;
// Buttons of a row beyond this are dropped without a word, as the service drops them.
const MAX_ROW = 12;
// Inline button kinds other than url and callback_data, which the service accepts as they are.
const OTHER_INLINE_KINDS = [
  'callback_game',
  'pay',
  'switch_inline_query',
  'switch_inline_query_chosen_chat',
  'switch_inline_query_current_chat',
  'login_url',
  'web_app',
  'copy_text',
];
const KEYBOARD_OPTIONS = ['is_persistent', 'resize_keyboard', 'one_time_keyboard', 'input_field_placeholder', 'selective'];

/** The validated reply markup of a call, or undefined when it has none. */
export function readReplyMarkup(params: Params): StoredMarkup | undefined {
  const raw = params.reply_markup;
  if (raw === undefined || raw === null || raw === '') return undefined;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw badRequest("can't parse reply keyboard markup JSON object");
    }
  }
  if (!isObject(value)) throw badRequest('object expected as reply markup');
  return classify(value);
}

function classify(value: Json): StoredMarkup | undefined {
  const rows = keyboardRows(value);
  const inlineRows = inlineKeyboardRows(value);
  const buttons = [...rows, ...inlineRows].reduce((count, row) => count + row.length, 0);
  if (buttons > MAX_BUTTONS) throw badRequest('reply markup is too long');
  const selective = value.selective === true ? { selective: true } : {};
  const placeholder = typeof value.input_field_placeholder === 'string' ? { input_field_placeholder: value.input_field_placeholder } : {};
  if (rows.length > 0) {
    const options = Object.fromEntries(KEYBOARD_OPTIONS.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]));
    return { kind: 'keyboard', markup: { keyboard: rows, ...options } };
  }
  if (inlineRows.length > 0) return { kind: 'inline', markup: { inline_keyboard: inlineRows } };
  if (value.remove_keyboard === true || value.hide_keyboard === true) return { kind: 'remove', markup: { remove_keyboard: true, ...selective } };
  if (value.force_reply === true || value.force_reply_keyboard === true) {
    return { kind: 'force_reply', markup: { force_reply: true, ...placeholder, ...selective } };
  }
  return undefined;
}

function keyboardRows(value: Json): KeyboardButton[][] {
  const keyboard = value.keyboard;
  if (keyboard === undefined) return [];
  if (!Array.isArray(keyboard)) throw badRequest('field "keyboard" must be of type Array');
  const rows = keyboard.map((row) => {
    if (!Array.isArray(row)) throw badRequest('field "keyboard" must be an Array of Arrays');
    const parsed = row.map((button: unknown) => {
      try {
        return keyboardButton(button);
      } catch (error) {
        throw badRequest(`can't parse keyboard button: ${(error as Error).message}`);
      }
    });
    return kept(parsed).map((button) => checkText(button) as KeyboardButton);
  });
  return rows.filter((row) => row.length > 0);
}

function keyboardButton(button: unknown): { text: string } {
  if (typeof button === 'string') return { text: button };
  if (!isObject(button)) throw new Error('KeyboardButton must be a String or an Object');
  return { ...button, text: requiredString(button, 'text') };
}

function inlineKeyboardRows(value: Json): InlineKeyboardButton[][] {
  const keyboard = value.inline_keyboard;
  if (keyboard === undefined) return [];
  if (!Array.isArray(keyboard)) throw badRequest('field "inline_keyboard" must be of type Array');
  const rows = keyboard.map((row) => {
    if (!Array.isArray(row)) throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
    return kept(row.map((button: unknown) => inlineButton(button))).map(checkInlineButton);
  });
  return rows.filter((row) => row.length > 0);
}

/** A row as the service keeps it: buttons with an empty label left out, then the first 12. */
function kept<T extends { text: string }>(row: T[]): T[] {
  return row.filter((button) => button.text !== '').slice(0, MAX_ROW);
}

/** An inline button as read, before the checks of a button that is kept (its label, URL and data). */
function inlineButton(button: unknown): InlineKeyboardButton {
  const fail = (why: string) => badRequest(`can't parse inline keyboard button: ${why}`);
  if (!isObject(button)) throw fail('InlineKeyboardButton must be an Object');
  let text: string;
  let url: string | undefined;
  let data: string | undefined;
  try {
    text = requiredString(button, 'text');
    url = optionalString(button, 'url');
    data = optionalString(button, 'callback_data');
  } catch (error) {
    throw fail((error as Error).message);
  }
  const style = pick(button, ['style', 'icon_custom_emoji_id']);
  if (url) return { text, url, ...style } as InlineKeyboardButton;
  if (data) return { text, callback_data: data, ...style } as InlineKeyboardButton;
  const kind = OTHER_INLINE_KINDS.find((key) => button[key] !== undefined);
  if (kind) return { text, [kind]: button[kind], ...style } as unknown as InlineKeyboardButton;
  throw fail('Text buttons are unallowed in the inline keyboard');
}

function checkInlineButton(button: InlineKeyboardButton): InlineKeyboardButton {
  checkText(button);
  if ('url' in button && typeof button.url === 'string') checkButtonUrl(button.url);
  if ('callback_data' in button && Buffer.byteLength(button.callback_data, 'utf8') > MAX_CALLBACK_DATA_BYTES) throw badRequest('BUTTON_DATA_INVALID');
  return button;
}

/** The service's check of an inline button's URL (see buttonUrlProblem): the URL, or its 400. */
export function checkButtonUrl(url: string): string {
  const problem = buttonUrlProblem(url);
  if (problem !== undefined) throw badRequest(`inline keyboard button URL '${url}' is invalid: ${problem}`);
  return url;
}

function checkText<T extends { text: string }>(button: T): T {
  if (button.text.trim() === '') throw badRequest('BUTTON_TEXT_INVALID');
  return button;
}

function requiredString(object: Json, field: string): string {
  if (object[field] === undefined) throw new Error(`Can't find field "${field}"`);
  return optionalString(object, field) ?? '';
}

/** A text field as the service reads one: a string, or a number taken as its text. */
function optionalString(object: Json, field: string): string | undefined {
  const value = object[field];
  if (value === undefined) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new Error(`Field "${field}" must be of type String`);
  return value;
}

function pick(object: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
