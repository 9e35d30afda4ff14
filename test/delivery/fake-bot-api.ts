// A scripted in-memory BotApi for unit tests of delivery and polling: each sendmessage either succeeds
// (recorded) or throws the next scripted error. The end-to-end tests use the real sandbox instead.
import type {
  AnswerCallbackQueryParams,
  ApiCallFn,
  BotApi,
  CallOptions,
  EditMessageTextParams,
  GetUpdatesParams,
  Message,
  SendMessageParams,
  Update,
  UserFromGetMe,
} from '../../src/api/types.js';

export class FakeBotApi implements BotApi {
  readonly sent: SendMessageParams[] = [];
  readonly attempts: SendMessageParams[] = [];
  readonly answered: AnswerCallbackQueryParams[] = [];
  /** Errors thrown by the next answercallbackquery calls, in order; `undefined` entries succeed. */
  answerFailures: Array<Error | undefined> = [];
  /** Errors thrown by the next sendmessage calls, in order; `undefined` entries succeed. */
  sendFailures: Array<Error | undefined> = [];
  readonly edited: EditMessageTextParams[] = [];
  /** Errors thrown by the next editmessagetext calls, in order; `undefined` entries succeed. */
  editFailures: Array<Error | undefined> = [];
  /** Per-call hook (e.g. to hold a chat's call open). */
  beforeSend?: (params: SendMessageParams) => Promise<void>;

  /** `call` by method name reaches the same scripted helpers (so transformers can wrap this fake as the wire). */
  readonly call: ApiCallFn = (method, params, options) => {
    const helpers: Record<string, (params: never, options?: CallOptions) => Promise<unknown>> = {
      getme: () => this.getMe(),
      getupdates: (p: GetUpdatesParams, o) => this.getUpdates(p, o),
      sendmessage: (p: SendMessageParams, o) => this.sendMessage(p, o),
      answercallbackquery: (p: AnswerCallbackQueryParams) => this.answerCallbackQuery(p),
      editmessagetext: (p: EditMessageTextParams) => this.editMessageText(p),
      setwebhook: (p) => this.setWebhook(p),
      deletewebhook: () => this.deleteWebhook(),
      getwebhookinfo: () => this.getWebhookInfo(),
    };
    return helpers[method]!(params as never, options) as never;
  };

  async getMe(): Promise<UserFromGetMe> {
    return {
      id: 1,
      is_bot: true as const,
      first_name: 'Bot',
      username: 'fake_bot',
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
    } as UserFromGetMe;
  }

  async sendMessage(params: SendMessageParams, options?: { signal?: AbortSignal }): Promise<Message.TextMessage> {
    this.attempts.push(params);
    if (this.beforeSend) await this.beforeSend(params);
    if (options?.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    const failure = this.sendFailures.shift();
    if (failure) throw failure;
    this.sent.push(params);
    return {
      message_id: this.sent.length,
      date: 0,
      chat: { id: Number(params.chat_id), type: 'private', first_name: 'U' },
      text: params.text,
    } as Message.TextMessage;
  }

  async answerCallbackQuery(params: AnswerCallbackQueryParams): Promise<true> {
    const failure = this.answerFailures.shift();
    if (failure) throw failure;
    this.answered.push(params);
    return true;
  }

  async editMessageText(params: EditMessageTextParams): Promise<Message.TextMessage> {
    const failure = this.editFailures.shift();
    if (failure) throw failure;
    this.edited.push(params);
    return {
      message_id: params.message_id,
      date: 0,
      chat: { id: Number(params.chat_id), type: 'private', first_name: 'U' },
      text: params.text,
    } as Message.TextMessage;
  }

  async getUpdates(_params: GetUpdatesParams, _options?: CallOptions): Promise<Update[]> {
    return [];
  }
  async setWebhook(_params?: unknown): Promise<true> {
    return true;
  }
  async deleteWebhook(): Promise<true> {
    return true;
  }
  async getWebhookInfo() {
    return { url: '', has_custom_certificate: false, pending_update_count: 0 };
  }
  async close(): Promise<void> {}
}
