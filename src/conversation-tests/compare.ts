// Compares what a step expected with what the bot did, and renders both sides in the test file's own
// notation so a failure reads as a diff (- expected, + actual) the author can copy from.
import type { InlineKeyboardMarkup } from '@grammyjs/types';
import type { ReplyMarkup } from '../engine/actions.js';
import type { ConversationState, StateValue } from '../engine/state.js';
import type { RecordedOutput } from './bot-api-double.js';
import type { ExpectedOutput, ExpectedState, TestStep, TextMatcher } from './model.js';
import { moderationMatches, showModeration } from './moderation-double.js';

/** What a user notices: every message and edit, and answers that show a notification (an empty answer only stops the spinner). */
export function visibleOutputs(outputs: readonly RecordedOutput[]): RecordedOutput[] {
  return outputs.filter((o) => o.kind !== 'answer' || (o.text !== undefined && o.text !== ''));
}

/** The diff lines of a failed expectation, or null when it holds. */
export function compareOutputs(expect: Exclude<TestStep['expect'], undefined | 'record'>, actual: readonly RecordedOutput[]): string[] | null {
  const expected = expect === 'nothing' ? [] : expect;
  const holds = expected.length === actual.length && expected.every((e, i) => outputMatches(e, actual[i]!));
  if (holds) return null;
  if (expected.length === 0) return ['- nothing', ...actual.map((a) => `+ ${showActual(a)}`)];
  if (actual.length === 0) return [...expected.map((e) => `- ${showExpected(e)}`), '+ nothing'];
  const lines: string[] = [];
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    const e = expected[i];
    const a = actual[i];
    if (e && a && outputMatches(e, a)) lines.push(`  ${showActual(a)}`);
    else {
      if (e) lines.push(`- ${showExpected(e)}`);
      if (a) lines.push(`+ ${showActual(a)}`);
    }
  }
  return lines;
}

function outputMatches(expected: ExpectedOutput, actual: RecordedOutput): boolean {
  switch (expected.kind) {
    case 'message':
      if (actual.kind !== 'message') return false;
      if (expected.in !== undefined && expected.in !== actual.in) return false;
      if (expected.topicOf !== undefined && expected.topicOf !== actual.topicOf) return false;
      if (expected.text && !textMatches(expected.text, actual.text)) return false;
      if (expected.suggestions) return JSON.stringify(expected.suggestions) === JSON.stringify(actual.suggestions ?? []);
      return !expected.buttons || sameButtons(expected.buttons, expected.flatButtons, buttonRows(actual.replyMarkup));
    case 'edit':
      return actual.kind === 'edit' && textMatches(expected.text, actual.text);
    case 'answer':
      return (
        actual.kind === 'answer' &&
        textMatches(expected.text, actual.text ?? '') &&
        (expected.alert === undefined || expected.alert === (actual.showAlert ?? false))
      );
    default:
      return actual.kind !== 'message' && actual.kind !== 'edit' && actual.kind !== 'answer' && moderationMatches(expected, actual);
  }
}

export function textMatches(matcher: TextMatcher, text: string): boolean {
  switch (matcher.kind) {
    case 'exact':
      return text === matcher.text;
    case 'contains':
      return text.includes(matcher.text);
    case 'pattern':
      return matcher.pattern.test(text);
  }
}

/** The texts of the buttons under a message, by row (inline keyboard or reply keyboard); empty for none. */
export function buttonRows(markup: ReplyMarkup | InlineKeyboardMarkup | undefined): string[][] {
  if (!markup) return [];
  if ('inline_keyboard' in markup) return markup.inline_keyboard.map((row) => row.map((b) => b.text));
  if ('keyboard' in markup) return markup.keyboard.map((row) => row.map((b) => (typeof b === 'string' ? b : b.text)));
  return [];
}

function sameButtons(expected: readonly (readonly string[])[], flat: boolean, actual: string[][]): boolean {
  const want = flat ? [expected.flat()] : expected;
  const got = flat ? [actual.flat()] : actual;
  return JSON.stringify(want) === JSON.stringify(got);
}

const quote = (text: string) => JSON.stringify(text);

function showText(matcher: TextMatcher): string {
  if (matcher.kind === 'exact') return quote(matcher.text);
  return matcher.kind === 'contains' ? `{ contains: ${quote(matcher.text)} }` : `{ pattern: ${quote(matcher.source)} }`;
}

function showExpected(expected: ExpectedOutput): string {
  switch (expected.kind) {
    case 'message': {
      const place = showPlace(expected.in, expected.topicOf);
      if (expected.suggestions) return `{ ${expected.text ? `text: ${showText(expected.text)}, ` : ''}suggestions: ${showIds(expected.suggestions)}${place} }`;
      const buttons = expected.buttons ? showButtons(expected.flatButtons ? [expected.buttons.flat()] : expected.buttons, expected.flatButtons) : undefined;
      if (!buttons && !place) return expected.text ? showText(expected.text) : '{ }';
      return `{ ${expected.text ? `text: ${showText(expected.text)}` : ''}${buttons ? `${expected.text ? ', ' : ''}buttons: ${buttons}` : ''}${place} }`.replace(
        '{ , ',
        '{ ',
      );
    }
    case 'edit':
      return `{ edit: ${showText(expected.text)} }`;
    case 'answer':
      return `{ answer: ${showText(expected.text)}${expected.alert !== undefined ? `, alert: ${expected.alert}` : ''} }`;
    default:
      return showModeration(expected);
  }
}

/** `, in: staff, topic_of: cleo` for the keys given (empty for none). */
function showPlace(chat: string | undefined, topicOf: string | undefined): string {
  return `${chat !== undefined ? `, in: ${chat}` : ''}${topicOf !== undefined ? `, topic_of: ${topicOf}` : ''}`;
}

/** Rule ids as a flow list, quoted only where YAML needs it. */
function showIds(ids: readonly string[]): string {
  return `[${ids.map((id) => (/^[A-Za-z][\w.-]*$/.test(id) ? id : quote(id))).join(', ')}]`;
}

function showButtons(rows: readonly (readonly string[])[], flat: boolean): string {
  const row = (r: readonly string[]) => `[${r.map(quote).join(', ')}]`;
  return flat ? row(rows.flat()) : `[${rows.map(row).join(', ')}]`;
}

/** An output as the test file would write it. */
export function showActual(actual: RecordedOutput): string {
  switch (actual.kind) {
    case 'message': {
      // Where it went is shown when it is not the step's chat, or is a hand-off topic.
      const place = actual.elsewhere || actual.topicOf ? showPlace(actual.in, actual.topicOf) : '';
      if (actual.suggestions) return `{ suggestions: ${showIds(actual.suggestions)}${place} }`;
      const rows = buttonRows(actual.replyMarkup);
      if (rows.length > 0) return `{ text: ${quote(actual.text)}, buttons: ${showButtons(rows, rows.length === 1)}${place} }`;
      return place ? `{ text: ${quote(actual.text)}${place} }` : quote(actual.text);
    }
    case 'edit':
      return `{ edit: ${quote(actual.text)} }`;
    case 'answer':
      return `{ answer: ${quote(actual.text ?? '')}${actual.showAlert ? ', alert: true' : ''} }`;
    default:
      return showModeration(actual);
  }
}

/** The value a state expectation reads: `user.x`, `chat.x`, `member.x`, `flow` (the flow's id) or `flow.x` (an answer so far). */
export function stateValue(state: ConversationState, key: string): StateValue | null {
  if (key === 'flow') return state.flow?.flowId ?? null;
  const [scope, name] = [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)];
  const record = scope === 'user' ? state.user : scope === 'chat' ? state.chat : scope === 'member' ? state.member : state.flow?.values;
  return record !== undefined && Object.hasOwn(record, name) ? record[name]! : null;
}

/** The diff lines of a failed state expectation, or null when every listed variable has its value. */
export function compareState(expected: ExpectedState, state: ConversationState): string[] | null {
  const lines: string[] = [];
  let failed = false;
  for (const [key, want] of expected) {
    const got = stateValue(state, key);
    const same = want === null || got === null ? want === got : String(want) === String(got);
    if (same) lines.push(`  ${key}: ${showValue(got)}`);
    else {
      failed = true;
      lines.push(`- ${key}: ${showValue(want)}`, `+ ${key}: ${showValue(got)}`);
    }
  }
  return failed ? lines : null;
}

function showValue(value: StateValue | null): string {
  return value === null ? 'null' : typeof value === 'number' ? String(value) : quote(value);
}
