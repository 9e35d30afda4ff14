// What delivery sends for one send_message action: the text, the sendmessage options and the rule behind
// it. The delivery layer turns it into one or more sendmessage calls.

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
  disableNotification?: boolean;
}
