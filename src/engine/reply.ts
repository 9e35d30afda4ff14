// What the pure engine decides for one message: the text to send and the sendmessage options.
// The delivery layer turns it into one or more sendmessage calls.

export type ParseMode = 'HTML' | 'MarkdownV2';

export interface OutgoingReply {
  /** The rule that produced this reply (for logs and metrics). */
  ruleId: string;
  chatId: number;
  /** Rendered text; may exceed 4096 characters, in which case delivery splits it. */
  text: string;
  parseMode?: ParseMode;
  /** Set when the rule asks to answer as a reply to the triggering message. */
  replyToMessageId?: number;
  disableNotification?: boolean;
}
