// What the engine asks the outside world to do for one event: the actions a decision lists, performed in
// order by the caller. Plain data, so a decision can be logged, journaled or compared in a test.
import type { ForceReply, InlineKeyboardMarkup, ReplyKeyboardMarkup, ReplyKeyboardRemove } from '@grammyjs/types';
import type { ParseMode } from './reply.js';

/** A keyboard (or its removal) to attach to a sent message, as the Bot API's reply_markup takes it. */
export type ReplyMarkup = InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove | ForceReply;

/** Send a text message (sendMessage); a text over 4096 characters is split by delivery. */
export interface SendMessageAction {
  readonly type: 'send_message';
  readonly chatId: number;
  readonly text: string;
  readonly parseMode?: ParseMode;
  /** Answer as a reply to this message of the chat. */
  readonly replyToMessageId?: number;
  readonly disableNotification?: boolean;
  readonly replyMarkup?: ReplyMarkup;
}

/** Answer a button press (answerCallbackQuery): without text it only stops the button's progress indicator. */
export interface AnswerCallbackAction {
  readonly type: 'answer_callback';
  readonly callbackQueryId: string;
  /** A notification shown to the user (0–200 characters). */
  readonly text?: string;
  /** Show the text as an alert the user must dismiss rather than a passing notification. */
  readonly showAlert?: boolean;
}

/** Replace the text (and keyboard) of a message the bot sent (editMessageText). */
export interface EditMessageTextAction {
  readonly type: 'edit_message_text';
  readonly chatId: number;
  readonly messageId: number;
  readonly text: string;
  readonly parseMode?: ParseMode;
  /** Only an inline keyboard can go on an edited message. */
  readonly replyMarkup?: InlineKeyboardMarkup;
}

/** Set (or, with null, delete) one key of the conversation state of the event's user or chat. */
export interface SetStateAction {
  readonly type: 'set_state';
  readonly scope: 'user' | 'chat';
  readonly key: string;
  readonly value: string | number | null;
}

/** One thing the engine decided to do; `type` says which. */
export type Action = SendMessageAction | AnswerCallbackAction | EditMessageTextAction | SetStateAction;
