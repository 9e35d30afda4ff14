// What the sandbox keeps about a chat and its messages beyond the Bot API Message itself: any kind of
// reply markup (the Message carries only an inline keyboard), earlier versions after edits, the last press
// of an inline button and how it was answered, the bot's chat action and the reply keyboard in force.
import type { ForceReply, InlineKeyboardMarkup, ReplyKeyboardMarkup, ReplyKeyboardRemove } from '@grammyjs/types';

/** Reply markup as validated by the sandbox, by kind. */
export type StoredMarkup =
  | { kind: 'inline'; markup: InlineKeyboardMarkup }
  | { kind: 'keyboard'; markup: ReplyKeyboardMarkup }
  | { kind: 'remove'; markup: ReplyKeyboardRemove }
  | { kind: 'force_reply'; markup: ForceReply };

/** A message's content before an edit: the fields the edit changed (`text`, `caption`, a `photo`…), its keyboard and edit date. */
export interface EarlierVersion {
  text?: string;
  caption?: string;
  reply_markup?: InlineKeyboardMarkup;
  edit_date?: number;
  [field: string]: unknown;
}

/** The last press of one of a message's inline buttons, as the user's client shows it. */
export interface PressView {
  callback_query_id: string;
  data: string;
  /** The user who pressed. */
  from: number;
  /** `pending` until the bot answers; `expired` when it did not answer in time (the spinner stops, nothing shown). */
  status: 'pending' | 'answered' | 'expired';
  text?: string;
  show_alert?: boolean;
  url?: string;
}

export interface MessageMeta {
  /** The chat's change counter when this message was stored or last changed. */
  revision: number;
  markup?: StoredMarkup;
  edits: EarlierVersion[];
  press?: PressView;
  deleted?: boolean;
  /** Why the bot answered with this message (or, on a user's message, why nothing answered), as hearsay reported it. */
  why?: Record<string, unknown>;
}

/** A chat action (sendchataction) and when it stops showing. */
export interface ShownAction {
  action: string;
  until: number;
}

/** Who a chat is between: a user and a peer (bot or assistant), or a group. */
export interface ChatRef {
  /** The user of a private chat; for a group, the group's (negative) chat id. */
  userId: number;
  /** The peer's username; empty for a group. */
  peer: string;
  peerId?: number;
  groupId?: number;
}

/** Something that changed in a chat other than a new message. */
export interface ChatChangeEvent extends ChatRef {
  kind: 'edited' | 'deleted' | 'press' | 'action' | 'explained';
  messageId?: number;
  revision: number;
}

/** A key that names one chat: `<user>:<peer id>` for private chats, `group:<id>` for groups. */
export function chatKeyOf(ref: { userId: number; peerId?: number; groupId?: number }): string {
  return ref.groupId !== undefined ? `group:${ref.groupId}` : `${ref.userId}:${ref.peerId}`;
}
