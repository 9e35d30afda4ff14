// The Bot API surface hearsay uses, typed with the maintained Telegram types package: the method table that
// `call` and every transformer are typed by, and the BotApi its callers see.
import type { ForceReply, InlineKeyboardMarkup, Message, ReplyKeyboardMarkup, ReplyKeyboardRemove, Update, UserFromGetMe, WebhookInfo } from '@grammyjs/types';

import type { UploadedFile } from './multipart-body.js';

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
  /** The forum topic the message goes to. */
  message_thread_id?: number;
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

export interface SetWebhookParams {
  url: string;
  secret_token?: string;
  max_connections?: number;
  allowed_updates?: string[];
  drop_pending_updates?: boolean;
}

/** editMessageText: replaces the text (and inline keyboard) of a message the bot sent. */
export interface EditMessageTextParams {
  chat_id: number | string;
  message_id: number;
  text: string;
  parse_mode?: 'HTML' | 'MarkdownV2';
  reply_markup?: InlineKeyboardMarkup;
}

/** sendChatAction: shows "typing…" (or another action) in a chat for a few seconds or until the bot's next message. */
export interface SendChatActionParams {
  chat_id: number | string;
  action: 'typing';
}

/** forwardMessage and copyMessage: a message of one chat to another (a copy does not name who wrote it). */
export interface RelayMessageParams {
  chat_id: number | string;
  from_chat_id: number | string;
  message_id: number;
  message_thread_id?: number;
  disable_notification?: boolean;
  /** copyMessage only: a new caption for media, and its formatting. */
  caption?: string;
  parse_mode?: 'HTML' | 'MarkdownV2';
  reply_parameters?: { message_id: number; allow_sending_without_reply?: boolean };
}

export interface DeleteWebhookParams {
  drop_pending_updates?: boolean;
}

/** Which chats a command list is for (the Bot API's BotCommandScope kinds hearsay sets). */
export type BotCommandScope = { type: 'default' } | { type: 'all_private_chats' } | { type: 'all_group_chats' };

/** setMyCommands / deleteMyCommands: the `/` menu of a scope, in one language (none: for every language without its own). */
export interface SetMyCommandsParams {
  commands: Array<{ command: string; description: string }>;
  scope?: BotCommandScope;
  language_code?: string;
}

/** Sandbox only (docs/sandbox.md): why the bot answered as it did, for the chat page. */
export interface ExplainUpdateParams {
  chat_id: number;
  /** The bot's messages that answered; with none, `message_id` names the user's message nothing answered. */
  message_ids: number[];
  message_id?: number;
  why: Record<string, unknown>;
}

export type { UploadedFile } from './multipart-body.js';

/** A file parameter: an upload (the call then goes as multipart), a file_id or a URL. */
export type InputFileParam = string | UploadedFile;

/** What every method that sends a message takes besides its content. */
export interface SendOptionsParams {
  chat_id: number | string;
  disable_notification?: boolean;
  reply_parameters?: { message_id: number; allow_sending_without_reply?: boolean };
  reply_markup?: InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove | ForceReply;
}

/** sendPhoto, sendDocument, …: the file under its kind's name (`photo`, `document`, …) and a caption. */
export type SendFileParams<K extends string> = SendOptionsParams & { caption?: string; parse_mode?: 'HTML' | 'MarkdownV2' } & { [kind in K]: InputFileParam };

export interface SendLocationParams extends SendOptionsParams {
  latitude: number;
  longitude: number;
}

export interface SendVenueParams extends SendLocationParams {
  title: string;
  address: string;
}

export interface SendContactParams extends SendOptionsParams {
  phone_number: string;
  first_name: string;
  last_name?: string;
}

/** One item of an album: a file_id, a URL, or `attach://<part>` naming an upload among the call's parameters. */
export interface InputMediaParam {
  type: 'photo' | 'video' | 'document' | 'audio';
  media: string;
  caption?: string;
  parse_mode?: 'HTML' | 'MarkdownV2';
}

/** sendMediaGroup: the album, and the uploads its items attach (`file0`, `file1`, …). */
export type SendMediaGroupParams = Omit<SendOptionsParams, 'reply_markup'> & { media: InputMediaParam[] } & { [part: `file${number}`]: UploadedFile };

/**
 * Every Bot API method hearsay calls: its lowercase name (as the service routes it), its parameters and its
 * result. One line here (and, for a method called in many places, a helper in BotApiMethods) adds a method;
 * every transformer then applies to it. The media methods are called through `call` by the media sender alone.
 */
export interface BotApiMethodTable {
  getme: { params: undefined; result: UserFromGetMe };
  getupdates: { params: GetUpdatesParams; result: Update[] };
  sendmessage: { params: SendMessageParams; result: Message.TextMessage };
  answercallbackquery: { params: AnswerCallbackQueryParams; result: true };
  sendchataction: { params: SendChatActionParams; result: true };
  forwardmessage: { params: RelayMessageParams; result: Message };
  /** The copy's message id. */
  copymessage: { params: RelayMessageParams; result: { message_id: number } };
  /** The edited message, or true for a message sent in inline mode. */
  editmessagetext: { params: EditMessageTextParams; result: Message.TextMessage | true };
  sendphoto: { params: SendFileParams<'photo'>; result: Message };
  senddocument: { params: SendFileParams<'document'>; result: Message };
  sendvideo: { params: SendFileParams<'video'>; result: Message };
  sendaudio: { params: SendFileParams<'audio'>; result: Message };
  sendvoice: { params: SendFileParams<'voice'>; result: Message };
  sendanimation: { params: SendFileParams<'animation'>; result: Message };
  sendsticker: { params: SendFileParams<'sticker'>; result: Message };
  sendmediagroup: { params: SendMediaGroupParams; result: Message[] };
  sendlocation: { params: SendLocationParams; result: Message };
  sendvenue: { params: SendVenueParams; result: Message };
  sendcontact: { params: SendContactParams; result: Message };
  setwebhook: { params: SetWebhookParams; result: true };
  deletewebhook: { params: DeleteWebhookParams | undefined; result: true };
  getwebhookinfo: { params: undefined; result: WebhookInfo };
  setmycommands: { params: SetMyCommandsParams; result: true };
  deletemycommands: { params: Omit<SetMyCommandsParams, 'commands'>; result: true };
  /** Sandbox only: the problems of the rules while the last good ones answer (empty: loaded again), for the chat page. */
  setruleproblems: { params: { problems: Array<{ where: string; message: string }> }; result: true };
  explainupdate: { params: ExplainUpdateParams; result: true };
}

/** A Bot API method name, lowercase. */
export type MethodName = keyof BotApiMethodTable;
export type MethodParams<M extends MethodName> = BotApiMethodTable[M]['params'];
export type MethodResult<M extends MethodName> = BotApiMethodTable[M]['result'];

export interface CallOptions {
  /** Aborts the call (used to end a long poll on shutdown), including any wait between its attempts. */
  signal?: AbortSignal;
  /** Overrides the client's default per-request timeout, in milliseconds (per attempt). */
  timeoutMs?: number;
  /** Overrides the method's retry policy for this one call (e.g. `{ maxAttempts: 1 }`: no retry). */
  retry?: Partial<RetryPolicy>;
  /** Extra fields for the log lines about this call's retries (e.g. the rule behind a reply). */
  logFields?: Record<string, unknown>;
  /**
   * A send of the low-priority lane (a broadcast): it waits behind every other send for the rate limits, and
   * leaves part of the overall limit to them, so a reply never waits for it.
   */
  background?: boolean;
}

/** How often and how long a failed call is tried again (see src/api/retry.ts). */
export interface RetryPolicy {
  /** Attempts in all, the first included; Infinity retries until success, a final failure or an abort. */
  maxAttempts: number;
  /** Longest 429 wait honoured; a longer retry_after ends the call with that 429 at once. */
  maxRetryAfterSeconds: number;
  /** Time from the first attempt after which no further attempt starts; Infinity = no budget. */
  budgetMs: number;
  /** Exponential backoff (with jitter) for 5xx, network errors and timeouts. */
  backoff: { baseMs: number; maxMs: number };
}

/** One Bot API call: any method of the table, its parameters, and options. */
export type ApiCallFn = <M extends MethodName>(method: M, params: MethodParams<M>, options?: CallOptions) => Promise<MethodResult<M>>;

/**
 * Wraps a call (the model is grammY's API transformers): `prev` is the next layer towards the wire. A transformer
 * may change the call, wait before it, repeat it, observe its outcome — and must pass `options` on, since the
 * signal in it ends the call on shutdown.
 */
export type Transformer = <M extends MethodName>(prev: ApiCallFn, method: M, params: MethodParams<M>, options: CallOptions) => Promise<MethodResult<M>>;

/** What the engine and ingress need from a Bot API client: `call` for any method, a typed helper for each. */
export interface BotApi {
  call: ApiCallFn;
  getMe(options?: CallOptions): Promise<UserFromGetMe>;
  sendMessage(params: SendMessageParams, options?: CallOptions): Promise<Message.TextMessage>;
  getUpdates(params: GetUpdatesParams, options?: CallOptions): Promise<Update[]>;
  answerCallbackQuery(params: AnswerCallbackQueryParams, options?: CallOptions): Promise<true>;
  /** The edited message, or true for a message sent in inline mode. */
  editMessageText(params: EditMessageTextParams, options?: CallOptions): Promise<Message.TextMessage | true>;
  setWebhook(params: SetWebhookParams, options?: CallOptions): Promise<true>;
  deleteWebhook(params?: DeleteWebhookParams, options?: CallOptions): Promise<true>;
  getWebhookInfo(options?: CallOptions): Promise<WebhookInfo>;
  close(): Promise<void>;
  /** Ends every request in flight at once (a stop past its deadline); optional for test doubles. */
  destroy?(): Promise<void>;
}
