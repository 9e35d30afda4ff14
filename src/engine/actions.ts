// What the engine asks the outside world to do for one event: the actions a decision lists, performed in
// order by the caller. Plain data, so a decision can be logged, journaled or compared in a test.
import type { ForceReply, InlineKeyboardMarkup, ReplyKeyboardMarkup, ReplyKeyboardRemove } from '@grammyjs/types';
import type { OutgoingMedia } from './media.js';
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
  /** The forum topic it goes to (message_thread_id): the topic of the message it answers. */
  readonly threadId?: number;
  readonly disableNotification?: boolean;
  readonly replyMarkup?: ReplyMarkup;
  /** The rule pins this message once sent (a moderate action with pinsReply follows): the sender reports its id. */
  readonly pinned?: boolean;
}

/**
 * Send media to the event's chat (sendPhoto, sendDocument, …, sendMediaGroup, sendLocation or sendVenue,
 * sendContact): a reply like send_message, performed within the update's handling. A local file is uploaded
 * once and its file_id reused (delivery keeps it by content hash).
 */
export interface SendMediaAction {
  readonly type: 'send_media';
  readonly chatId: number;
  readonly media: OutgoingMedia;
  /** Under a photo, document, video, audio, voice or animation (an album's items carry their own). */
  readonly caption?: string;
  readonly parseMode?: ParseMode;
  readonly replyToMessageId?: number;
  readonly disableNotification?: boolean;
  /** Not for an album (the service takes none with one). */
  readonly replyMarkup?: ReplyMarkup;
  /** A moderation action of the rule pins the message this becomes (an album's first). */
  readonly pinned?: boolean;
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
 * Set (or, with null, delete) one variable of the event's user (`user`: the same in all of the user's chats),
 * chat (`chat`: shared by its members) or member (`member`: this user in this chat). Committed with the
 * update's done mark, in the order listed.
 */
export interface SetStateAction {
  readonly type: 'set_state';
  readonly scope: 'user' | 'chat' | 'member';
  /** For `member`: the member it is about when not the event's user (someone added to a group by another). */
  readonly userId?: number;
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
  /** The user's flow in another chat than the event's: their private chat, where a join request's questions are asked. */
  readonly chatId?: number;
}

/** Plain JSON: what an effect carries must survive any store. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Something to do beyond the replies to the event's chat — a message to another chat, a call to a backend, a
 * message at a later time — done through the outbox: stored with the update's done record and performed after
 * it, once (see src/pipeline/outbox-port.ts). The engine says what; the pipeline gives it its id.
 */
export interface EffectAction {
  readonly type: 'effect';
  /** Which performer carries it out: `message` (a Bot API call: `{ method, params }`), … */
  readonly kind: string;
  readonly payload: JsonValue;
  /** Performed in this key's turn, after the key's earlier work (a chat's key: `chat:<id>`). */
  readonly orderKey?: string;
  /** When it is due (ms since the epoch); at once when absent. */
  readonly dueAt?: number;
  /** Storing it drops a pending effect with the same replace key (a reminder set again). */
  readonly replaceKey?: string;
  /** Dropped (and logged) instead of performed once it is more than this late. */
  readonly lateAfterMs?: number;
  /** Given up this long after it was due. */
  readonly giveUpAfterMs?: number;
}

/** Drops the pending effects with these replace keys (a reminder cancelled), in the same record as the rest. */
export interface CancelEffectsAction {
  readonly type: 'cancel_effects';
  readonly replaceKeys: readonly string[];
}

/**
 * Show the chat that the bot is at work (sendChatAction): "typing…" for a few seconds or until the bot's next
 * message. The pipeline sends it while a user waits for a backend's answer.
 */
export interface ChatActionAction {
  readonly type: 'chat_action';
  readonly chatId: number;
  readonly action: 'typing';
}

/** The Bot API methods a rule's moderation calls. */
export type ModerationMethod =
  'deletemessage' | 'restrictchatmember' | 'banchatmember' | 'unbanchatmember' | 'approvechatjoinrequest' | 'declinechatjoinrequest' | 'pinchatmessage';

/**
 * A moderation call on the event's chat (delete the message, restrict or ban the member, approve a join
 * request, pin): performed in order with the replies, within the update's handling. A refusal (a missing admin
 * right, a message already gone) is logged and counted, and the actions after it still run.
 */
export interface ModerateAction {
  readonly type: 'moderate';
  readonly method: ModerationMethod;
  readonly chatId: number;
  /** The call's other parameters (user_id, message_id, until_date, permissions…). */
  readonly params: Readonly<Record<string, JsonValue>>;
  /** Pin the message the reply before it became (its id is known only once it is sent): `pinchatmessage` only. */
  readonly pinsReply?: boolean;
}

/** One thing the engine decided to do; `type` says which. */
export type Action =
  | SendMessageAction
  | SendMediaAction
  | AnswerCallbackAction
  | EditMessageTextAction
  | SetStateAction
  | SetFlowAction
  | EffectAction
  | CancelEffectsAction
  | ChatActionAction
  | ModerateAction;
