// A BotApi that remembers whether the last call reached a working service, for /healthz.
// Refusals of one request (400, 403, 429) still prove the service is up; 401, 5xx and transport
// failures do not. A caller's own abort says nothing either way.
import { isAbortError } from '../api/errors.js';
import type {
  AnswerCallbackQueryParams,
  BotApi,
  CallOptions,
  EditMessageTextParams,
  GetUpdatesParams,
  SendMessageParams,
  SetWebhookParams,
} from '../api/types.js';
import { serviceLooksHealthy } from '../api/failure.js';
import type { HealthState } from './health.js';

export class ObservedBotApi implements BotApi {
  constructor(
    private readonly inner: BotApi,
    private readonly health: HealthState,
  ) {}

  private async observe<T>(call: Promise<T>): Promise<T> {
    try {
      const result = await call;
      this.health.lastApiCallOk = true;
      return result;
    } catch (error) {
      if (!isAbortError(error)) this.health.lastApiCallOk = serviceLooksHealthy(error);
      throw error;
    }
  }

  getMe(options?: CallOptions) {
    return this.observe(this.inner.getMe(options));
  }
  sendMessage(params: SendMessageParams, options?: CallOptions) {
    return this.observe(this.inner.sendMessage(params, options));
  }
  getUpdates(params: GetUpdatesParams, options?: CallOptions) {
    return this.observe(this.inner.getUpdates(params, options));
  }
  answerCallbackQuery(params: AnswerCallbackQueryParams, options?: CallOptions) {
    return this.observe(this.inner.answerCallbackQuery(params, options));
  }
  editMessageText(params: EditMessageTextParams, options?: CallOptions) {
    return this.observe(this.inner.editMessageText(params, options));
  }
  setWebhook(params: SetWebhookParams, options?: CallOptions) {
    return this.observe(this.inner.setWebhook(params, options));
  }
  deleteWebhook(params?: { drop_pending_updates?: boolean }, options?: CallOptions) {
    return this.observe(this.inner.deleteWebhook(params, options));
  }
  getWebhookInfo(options?: CallOptions) {
    return this.observe(this.inner.getWebhookInfo(options));
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
