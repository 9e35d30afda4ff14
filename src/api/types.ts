// The Bot API surface hearsay uses, typed with the maintained Telegram types package.
import type { ForceReply, InlineKeyboardMarkup, Message, ReplyKeyboardMarkup, ReplyKeyboardRemove, Update, UserFromGetMe, WebhookInfo } from '@grammyjs/types';

export type { Message, Update, UserFromGetMe, WebhookInfo };

export interface GetUpdatesParams {
  offset?: number;
  limit?: number;
  /** Long-poll seconds (0–50). */
  timeout?: number;
  allowed_updates?: string[];
}

export interface SendMessageParams {
  chat_id: number | string;
  text: string;
  parse_mode?: 'HTML' | 'MarkdownV2';
  disable_notification?: boolean;
  reply_parameters?: { message_id: number; allow_sending_without_reply?: boolean };
  reply_markup?: InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove | ForceReply;
}

/** answerCallbackQuery: stops a pressed button's progress indicator, optionally with a notification or alert. */
export interface AnswerCallbackQueryParams {
  callback_query_id: string;
  /** 0–200 characters; without it the user sees nothing. */
  text?: string;
  show_alert?: boolean;
  url?: string;
  /** Seconds the result may be cached on the user's device. */
  cache_time?: number;
}

/** editMessageText: replaces the text (and inline keyboard) of a message the bot sent. */
export interface EditMessageTextParams {
  chat_id: number | string;
  message_id: number;
  text: string;
  parse_mode?: 'HTML' | 'MarkdownV2';
  reply_markup?: InlineKeyboardMarkup;
}

export interface SetWebhookParams {
  url: string;
  secret_token?: string;
  max_connections?: number;
  allowed_updates?: string[];
  drop_pending_updates?: boolean;
}

export interface CallOptions {
  /** Aborts the call (used to end a long poll on shutdown). */
  signal?: AbortSignal;
  /** Overrides the client's default per-request timeout, in milliseconds. */
  timeoutMs?: number;
}

/** What the engine and ingress need from a Bot API client. */
export interface BotApi {
  getMe(options?: CallOptions): Promise<UserFromGetMe>;
  sendMessage(params: SendMessageParams, options?: CallOptions): Promise<Message.TextMessage>;
  getUpdates(params: GetUpdatesParams, options?: CallOptions): Promise<Update[]>;
  answerCallbackQuery(params: AnswerCallbackQueryParams, options?: CallOptions): Promise<true>;
  /** The edited message, or true for a message sent in inline mode. */
  editMessageText(params: EditMessageTextParams, options?: CallOptions): Promise<Message.TextMessage | true>;
  setWebhook(params: SetWebhookParams, options?: CallOptions): Promise<true>;
  deleteWebhook(params?: { drop_pending_updates?: boolean }, options?: CallOptions): Promise<true>;
  getWebhookInfo(options?: CallOptions): Promise<WebhookInfo>;
  close(): Promise<void>;
  /** Ends every request in flight at once (a stop past its deadline); optional for test doubles. */
  destroy?(): Promise<void>;
}
