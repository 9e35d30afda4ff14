// The performer of `schedule` effects: one occurrence of a scheduled post, written when it goes out (its
// {{now.*}} is the occurrence's time) from the rules of that moment, in the rules' default language, and sent as
// a `message` effect is. An occurrence whose schedule a reload removed, or whose time is no longer one of its
// occurrences, sends nothing (logged); a chat the configuration no longer names is given up.
import type { Message } from '@grammyjs/types';
import type { JsonValue } from '../engine/actions.js';
import type { CompiledSchedule } from '../engine/compile-schedules.js';
import { renderInlineKeyboard } from '../engine/keyboards.js';
import { render } from '../engine/render.js';
import type { Logger } from '../log/logger.js';
import type { EffectPerformer } from '../pipeline/outbox.js';
import { isOccurrence, scheduleChat, type ScheduleEffectPayload } from '../pipeline/schedules.js';

export interface SchedulePerformerOptions {
  /** The schedules of the rules in force. */
  readonly schedules: () => readonly CompiledSchedule[];
  readonly chats: Readonly<Record<string, number | string>>;
  /** The performer of `message` effects, which sends the post. */
  readonly send: EffectPerformer;
  readonly logger: Logger;
}

/** The Bot API call of one occurrence: sendmessage with the schedule's text, rendered at `at`. */
export function scheduledMessage(schedule: CompiledSchedule, chatId: number | string, at: number): { method: string; params: Record<string, JsonValue> } {
  // Written by the bot on its own: a stand-in message carries only the chat (the templates cannot read more).
  const message = { message_id: 0, date: Math.floor(at / 1000), chat: { id: chatId, type: 'private', first_name: '' } } as unknown as Message;
  const values = { message, now: at };
  const params: Record<string, JsonValue> = { chat_id: chatId, text: render(schedule.text, values, schedule.parseMode) };
  if (schedule.parseMode) params.parse_mode = schedule.parseMode;
  if (schedule.buttons) params.reply_markup = renderInlineKeyboard(schedule.buttons, values) as unknown as JsonValue;
  if (schedule.disableNotification) params.disable_notification = true;
  return { method: 'sendmessage', params };
}

/** The performer of `schedule` effects. */
export function schedulePerformer(options: SchedulePerformerOptions): EffectPerformer {
  return async (effect, signal) => {
    const { schedule: id, at } = effect.payload as unknown as ScheduleEffectPayload;
    const schedule = options.schedules().find((s) => s.id === id);
    if (!schedule || !isOccurrence(schedule, at)) {
      options.logger.info({ schedule: id, at: new Date(at).toISOString() }, 'scheduled post not sent: the rules no longer schedule it then');
      return { outcome: 'done' };
    }
    const chatId = scheduleChat(schedule, options.chats);
    if (chatId === undefined) return { outcome: 'failed', reason: `chat '${String(schedule.to)}' is not declared under chats: in the configuration` };
    const payload = scheduledMessage(schedule, chatId, at);
    const attempt = await options.send({ ...effect, payload: payload as unknown as JsonValue }, signal);
    if (attempt.outcome === 'done') options.logger.info({ schedule: id, chat_id: chatId, at: new Date(at).toISOString() }, 'scheduled post sent');
    return attempt;
  };
}
