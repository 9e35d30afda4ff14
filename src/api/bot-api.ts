// The typed helpers (getMe, sendMessage, ...) written once over `call`, and the composition of transformers
// around a transport: the one place a call passes through retry, rate limiting, health and metrics.
import type {
  AnswerCallbackQueryParams,
  ApiCallFn,
  BotApi,
  CallOptions,
  DeleteWebhookParams,
  EditMessageTextParams,
  GetUpdatesParams,
  Message,
  MethodName,
  MethodParams,
  MethodResult,
  SendMessageParams,
  SetWebhookParams,
  Transformer,
  Update,
  UserFromGetMe,
  WebhookInfo,
} from './types.js';

/** Every typed helper as one `call`; a subclass provides `call` (the wire, or a chain of transformers). */
export abstract class BotApiMethods implements BotApi {
  abstract readonly call: ApiCallFn;
  abstract close(): Promise<void>;

  getMe(options?: CallOptions): Promise<UserFromGetMe> {
    return this.call('getme', undefined, options);
  }
  getUpdates(params: GetUpdatesParams, options?: CallOptions): Promise<Update[]> {
    return this.call('getupdates', params, options);
  }
  sendMessage(params: SendMessageParams, options?: CallOptions): Promise<Message.TextMessage> {
    return this.call('sendmessage', params, options);
  }
  answerCallbackQuery(params: AnswerCallbackQueryParams, options?: CallOptions): Promise<true> {
    return this.call('answercallbackquery', params, options);
  }
  editMessageText(params: EditMessageTextParams, options?: CallOptions): Promise<Message.TextMessage | true> {
    return this.call('editmessagetext', params, options);
  }
  setWebhook(params: SetWebhookParams, options?: CallOptions): Promise<true> {
    return this.call('setwebhook', params, options);
  }
  deleteWebhook(params?: DeleteWebhookParams, options?: CallOptions): Promise<true> {
    return this.call('deletewebhook', params, options);
  }
  getWebhookInfo(options?: CallOptions): Promise<WebhookInfo> {
    return this.call('getwebhookinfo', undefined, options);
  }
}

/**
 * `prev`'s answer as a promise, also when a layer below throws instead of rejecting: transformers that work
 * without an async frame of their own (those every reply passes through) call the next layer through this.
 */
export function callNext<M extends MethodName>(prev: ApiCallFn, method: M, params: MethodParams<M>, options: CallOptions): Promise<MethodResult<M>> {
  try {
    return prev(method, params, options);
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/**
 * Chains transformers around `prev`, the first listed outermost: `composeCall(wire, [retry, health])` runs retry,
 * which runs health once per attempt, which runs the wire.
 */
export function composeCall(prev: ApiCallFn, transformers: readonly Transformer[]): ApiCallFn {
  return transformers.reduceRight<ApiCallFn>(
    (inner, transformer) =>
      (method, params, options = {}) =>
        transformer(inner, method, params, options),
    prev,
  );
}

/** A BotApi whose every call, typed helpers included, passes through `transformers` (outermost first) to `transport`. */
export class TransformedBotApi extends BotApiMethods {
  readonly call: ApiCallFn;

  constructor(
    private readonly transport: BotApi,
    transformers: readonly Transformer[],
  ) {
    super();
    this.call = composeCall((method, params, options) => transport.call(method, params, options), transformers);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** Ends every request in flight at once (a stop past its deadline). */
  async destroy(): Promise<void> {
    await (this.transport.destroy ? this.transport.destroy() : this.transport.close());
  }
}
