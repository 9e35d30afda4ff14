// What a Bot API method implementation gets: the calling bot and the sandbox's services.
import type { CallbackQueries } from './callback-queries.js';
import type { RateLimiter } from './rate-limiter.js';
import type { BotRecord, SandboxStore } from './store.js';
import type { WebhookDispatcher } from './webhook-worker.js';

export interface MethodContext {
  store: SandboxStore;
  bot: BotRecord;
  limiter: RateLimiter;
  webhooks: WebhookDispatcher;
  callbacks: CallbackQueries;
  /** Runs `listener` if the caller's connection closes first; returns a function that stops listening. */
  onConnectionClose(listener: () => void): () => void;
}
