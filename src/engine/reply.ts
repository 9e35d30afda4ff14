// What delivery sends for one send_message action: the text, the sendmessage options and the rule behind
// it. The delivery layer turns it into one or more sendmessage calls.
import type { ForceReply, InlineKeyboardMarkup, ReplyKeyboardMarkup, ReplyKeyboardRemove } from '@grammyjs/types';

/** The Bot API parse modes a rule may use. */
export type ParseMode = 'HTML' | 'MarkdownV2';

/** One reply to deliver. */
export interface OutgoingReply {
  /** The rule that produced this reply (for logs and metrics); null when no rule did. */
  ruleId: string | null;
  chatId: number;
  /** Rendered text; may exceed 4096 characters, in which case delivery splits it. */
  text: string;
  parseMode?: ParseMode;
  /** Set when the rule asks to answer as a reply to the triggering message. */
  replyToMessageId?: number;
  /** The forum topic to answer in (message_thread_id): the topic of the message answered. */
  threadId?: number;
  disableNotification?: boolean;
  /** Ask the sender for the id of the message sent (a rule pins its reply); only a reply of one part has one. */
  wantsMessageId?: boolean;
  /** Buttons, a reply keyboard (or its removal) or a request for a reply; goes with the last part of a split text. */
  replyMarkup?: InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove | ForceReply;
}
