// Builds Telegram-shaped messages and events (text messages, button presses) for the engine tests, and reads the
// reply out of a decision.
import type { Message, MessageEntity, Update, User } from '@grammyjs/types';
import { decide, type Decision } from '../../src/engine/decide.js';
import { toEvent, type CallbackQueryEvent, type MessageEvent } from '../../src/engine/events.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { EMPTY_STATE } from '../../src/engine/state.js';

export interface MessageOptions {
  chatType?: 'private' | 'group' | 'supergroup' | 'channel';
  chatId?: number;
  firstName?: string;
  lastName?: string;
  username?: string;
  entities?: MessageEntity[];
  noUser?: boolean;
}

export function message(text: string | undefined, options: MessageOptions = {}): Message {
  const chatType = options.chatType ?? 'private';
  const chatId = options.chatId ?? (chatType === 'private' ? 42 : -100);
  const chat = chatType === 'private' ? { id: chatId, type: chatType, first_name: 'Ada' } : { id: chatId, type: chatType, title: 'The Group' };
  const from = {
    id: 42,
    is_bot: false,
    first_name: options.firstName ?? 'Ada',
    ...(options.lastName !== undefined ? { last_name: options.lastName } : {}),
    ...(options.username !== undefined ? { username: options.username } : {}),
  };
  return {
    message_id: 7,
    date: 1_700_000_000,
    chat,
    ...(options.noUser ? {} : { from }),
    ...(text !== undefined ? { text } : {}),
    ...(options.entities ? { entities: options.entities } : {}),
  } as Message;
}

/** The event decide gets for a text message (throws for one without text: there is none). */
export function messageEvent(msg: Message, updateId = 1): MessageEvent {
  const event = toEvent({ update_id: updateId, message: msg } as Update);
  if (event?.kind !== 'message') throw new Error('not a text message');
  return event;
}

export interface PressOptions {
  /** Who pressed: Ada (user 42) unless told. */
  from?: User;
  /** The callback query id (answer_callback names it): 'cq' unless told. */
  id?: string;
  updateId?: number;
}

/** The event decide gets for a press of the inline button with `data` (none: a game button) on the bot's `message`. */
export function pressEvent(data: string | undefined, message: Message, options: PressOptions = {}): CallbackQueryEvent {
  const from = options.from ?? { id: 42, is_bot: false, first_name: 'Ada' };
  const query = { id: options.id ?? 'cq', from, chat_instance: 'c', message, ...(data !== undefined ? { data } : {}) };
  const event = toEvent({ update_id: options.updateId ?? 9, callback_query: query } as Update);
  if (event?.kind !== 'callback_query') throw new Error('not a button press');
  return event;
}

/** The text of the decision's send_message action, or null when it sends nothing. */
export function replyText(decision: Decision): string | null {
  const send = decision.actions.find((action) => action.type === 'send_message');
  return send?.type === 'send_message' ? send.text : null;
}

/** decide() on one text message with no conversation state. */
export function decideMessage(msg: Message, ruleSet: RuleSet, botUsername: string, random?: () => number): Decision {
  return decide(messageEvent(msg), ruleSet, EMPTY_STATE, { botUsername, ...(random ? { random } : {}) });
}
