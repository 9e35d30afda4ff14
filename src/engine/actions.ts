// What the engine asks the outside world to do for one event: the actions a decision lists, performed in
// order by the caller. Plain data, so a decision can be logged, journaled or compared in a test.
import type { ForceReply, InlineKeyboardMarkup, ReplyKeyboardMarkup, ReplyKeyboardRemove } from '@grammyjs/types';
import type { ParseMode } from './reply.js';
import type { FlowPosition, StateValue } from './state.js';

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

/**
 * Set (or, with null, delete) one variable of the event's user (`user`: the same in all of the user's chats)
 * or chat (`chat`: shared by its members). Committed with the update's done mark, in the order listed.
 */
export interface SetStateAction {
  readonly type: 'set_state';
  readonly scope: 'user' | 'chat';
  /** The variable's name, without the scope (`name` for user.name). */
  readonly key: string;
  /** The new value, computed from the state decide was given; null deletes the variable. */
  readonly value: StateValue | null;
  /**
   * Set when the change is an increment (`{ increment: N }`): N. A store that applies changes to a value
   * newer than the one decide read (a user's variables are shared by chats handled in parallel) adds N
   * to its own value instead of writing `value`.
   */
  readonly increment?: number;
}

/**
 * Replace where the event's user stands in a flow in the event's chat: the new position (a flow started,
 * a step answered or retried), or null when the user leaves the flow (done, cancel, timeout, or a reload
 * that removed its flow or step). Committed with the update's done mark, like set_state.
 */
export interface SetFlowAction {
  readonly type: 'set_flow';
  readonly flow: FlowPosition | null;
}

/** One thing the engine decided to do; `type` says which. */
export type Action = SendMessageAction | AnswerCallbackAction | EditMessageTextAction | SetStateAction | SetFlowAction;
