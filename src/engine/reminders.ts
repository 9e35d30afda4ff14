// A rule's or a done branch's reminders at decide time: each becomes a `message` effect of the outbox, due at
// its time, rendered now (with {{now.*}} as of the reminder's own time) in every language the rules speak (the
// performer sends the one the user has when it fires; see delivery/message-effects.ts), under a replace key of
// its id, user and chat (so setting it again replaces the pending one, and `forget_reminder` drops it), and
// dropped rather than sent once it is more than `late_after` overdue.
import type { Action, EffectAction, JsonValue } from './actions.js';
import type { CompiledReminder, CompiledReminders } from './compile-reminders.js';
import type { LanguageSettings } from './languages.js';
import { renderInlineKeyboard } from './keyboards.js';
import { render, type RenderValues } from './render.js';
import { parseReminderTime, reminderInstant } from './reminder-time.js';

/** The replace key of a reminder: one pending per id, user and chat. */
export function reminderKey(chatId: number, userId: number, id: string): string {
  return `reminder:${chatId}:${userId}:${id}`;
}

/**
 * The actions of `forget_reminder` (first) and `remind` for the user `userId` in `chatId` at `now`. A reminder
 * whose `at` does not give a time when rendered (a variable without a date) is left out; without a user
 * (a message on behalf of a chat) there is nobody to remind.
 */
export function reminderActions(reminders: CompiledReminders, values: RenderValues, chatId: number, userId: number | undefined, now: number): Action[] {
  if (userId === undefined || (reminders.remind.length === 0 && reminders.forget.length === 0)) return [];
  const actions: Action[] = [];
  if (reminders.forget.length > 0) actions.push({ type: 'cancel_effects', replaceKeys: reminders.forget.map((id) => reminderKey(chatId, userId, id)) });
  for (const reminder of reminders.remind) {
    const dueAt =
      reminder.inMs !== null ? now + reminder.inMs : dueTime(reminder.at === null ? '' : render(reminder.at, { ...values, now }), now, reminder.zone);
    if (dueAt === undefined) continue;
    const at: RenderValues = { ...values, now: dueAt };
    const params: { [key: string]: JsonValue } = { chat_id: chatId, ...reminderContent(reminder, at) };
    if (reminder.parseMode) params.parse_mode = reminder.parseMode;
    const payload: { [key: string]: JsonValue } = { method: 'sendmessage', params };
    if (reminder.languages) payload.languages = inEveryLanguage(reminder, at, reminder.languages, userId, values.message.from?.language_code);
    const effect: EffectAction = {
      type: 'effect',
      kind: 'message',
      payload,
      orderKey: `chat:${chatId}`,
      dueAt,
      replaceKey: reminderKey(chatId, userId, reminder.id),
      lateAfterMs: reminder.lateAfterMs,
    };
    actions.push(effect);
  }
  return actions;
}

/** The reminder's text and buttons, in the user's language of now or in `language`. */
function reminderContent(reminder: CompiledReminder, at: RenderValues): { [key: string]: JsonValue } {
  const content: { [key: string]: JsonValue } = { text: render(reminder.text, at, reminder.parseMode) };
  if (reminder.buttons) content.reply_markup = renderInlineKeyboard(reminder.buttons, at) as unknown as JsonValue;
  return content;
}

/**
 * The payload's `languages`: the content in each language, and the user (with their client's language code of
 * the moment it was set) whose language when it fires picks one (`MessageEffectPayload` in delivery/message-effects.ts).
 */
function inEveryLanguage(
  reminder: CompiledReminder,
  at: RenderValues,
  settings: LanguageSettings,
  userId: number,
  client: string | undefined,
): { [key: string]: JsonValue } {
  const content: { [key: string]: JsonValue } = {};
  for (const language of settings.supported) content[language] = reminderContent(reminder, { ...at, language });
  return { user: userId, ...(client ? { client } : {}), content };
}

function dueTime(text: string, now: number, zone: string): number | undefined {
  const time = parseReminderTime(text);
  return time === undefined ? undefined : reminderInstant(time, now, zone);
}
