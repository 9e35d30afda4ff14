// The sandbox: a local, in-memory stand-in for the messaging service, built as Fastify plugins (client
// routes, Bot API routes, fault injection) over one store, with a webhook delivery worker per bot.
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from '../log/logger.js';
import { redactUrl } from '../api/errors.js';
import { SandboxApiFailure, failureEnvelope, notFound } from './api-failure.js';
import { Assistant, type HearsayCommand } from './assistant.js';
import { botApiRoutes, observed, type BotApiCallEvent } from './bot-api-routes.js';
import { CallbackQueries, DEFAULT_CALLBACK_TIMEOUT_MS } from './callback-queries.js';
import { clientRoutes } from './client-routes.js';
import { FaultInjector, faultRoutes } from './faults.js';
import { fileRoutes } from './file-methods.js';
import { demoShopRoutes } from './demo-shop.js';
import { MAX_FILE_BYTES, type UploadedPart } from './input-files.js';
import { METHODS } from './method-table.js';
import { RateLimiter, type RateLimitOptions } from './rate-limiter.js';
import { RequestGuard } from './request-guard.js';
import { SandboxStore, type QueuedUpdateEvent, type StoredMessageEvent } from './store.js';
import { WebhookDispatcher, type WebhookTimingOptions } from './webhook-worker.js';

export type { QueuedUpdateEvent, StoredMessageEvent } from './store.js';
export type { BotApiCallEvent } from './bot-api-routes.js';
export type { RateLimitOptions } from './rate-limiter.js';

export interface SandboxOptions {
  logger?: Logger;
  webhook?: WebhookTimingOptions;
  /** Off by default; `true` uses the real service's approximate limits. */
  rateLimits?: boolean | RateLimitOptions;
  /** How long a button press waits for answercallbackquery before it expires. Default 15 000 ms. */
  callbackTimeoutMs?: number;
  /** How users start hearsay, for the assistant's hint on running a new bot (`hearsay` by default). */
  hearsayCommand?: HearsayCommand;
}

export interface Sandbox {
  app: FastifyInstance;
  store: SandboxStore;
  /** Starts listening (127.0.0.1 and a free port unless told otherwise); returns the base URL. */
  listen(options?: { host?: string; port?: number }): Promise<string>;
  close(): Promise<void>;
  /** Every message stored in any chat, both directions. Returns an unsubscribe function. */
  onMessage(listener: (event: StoredMessageEvent) => void): () => void;
  /** Every update queued for a bot, with its update_id. Returns an unsubscribe function. */
  onUpdate(listener: (event: QueuedUpdateEvent) => void): () => void;
  /** Every Bot API method call run (over HTTP or in a webhook's answer), with its outcome. Returns an unsubscribe function. */
  onBotApiCall(listener: (event: BotApiCallEvent) => void): () => void;
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // Request log lines would carry URLs, and so tokens: the sandbox logs its own, redacted, lines instead.
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: true,
  });
  const store = new SandboxStore();
  const faults = new FaultInjector();
  const limiter = new RateLimiter(options.rateLimits);
  const webhooks = new WebhookDispatcher(store, options.webhook, options.logger);
  const callbacks = new CallbackQueries(store, options.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS);
  const callListeners = new Set<(event: BotApiCallEvent) => void>();
  const onCall = (event: BotApiCallEvent): void => {
    for (const listener of callListeners) listener(event);
  };

  // The server's logger is ours; the helpers below need only Fastify's base type.
  const server = app as unknown as FastifyInstance;
  const guard = new RequestGuard();
  refuseWebPages(server, guard, options.logger);
  await registerBodyParsers(server);
  answerFailures(server, options.logger);

  await app.register(clientRoutes, {
    store,
    assistant: new Assistant(store, { ...(options.hearsayCommand !== undefined ? { hearsayCommand: options.hearsayCommand } : {}) }),
    callbacks,
  });
  await app.register(faultRoutes, { store, faults });
  await app.register(fileRoutes, { store });
  await app.register(demoShopRoutes);
  await app.register(botApiRoutes, { store, faults, limiter, webhooks, callbacks, logger: options.logger, onCall });

  webhooks.setAnswerRunner(async (bot, method, params) => {
    const run = METHODS.get(method);
    if (!run) throw notFound();
    await observed(onCall, { bot: bot.username, method, params }, () =>
      run({ store, bot, limiter, webhooks, callbacks, onConnectionClose: () => () => undefined }, params),
    );
  });

  return sandboxHandle(server, { store, guard, webhooks, callbacks, callListeners });
}

/**
 * Refuses, before any route runs (the page and the event stream included), a request addressed to another
 * host name or sent by a page of another origin (request-guard.ts); each refused Host or Origin is logged once.
 */
function refuseWebPages(app: FastifyInstance, guard: RequestGuard, logger: Logger | undefined): void {
  const logged = new Set<string>();
  app.addHook('onRequest', (request, _reply, done) => {
    const { host, origin } = request.headers;
    const refusal = guard.refusal(host, origin);
    if (refusal === undefined) return done();
    const key = `${refusal.errorCode} ${refusal.errorCode === 421 ? host : origin}`;
    // Bounded: a page can send any number of names.
    if (logger && !logged.has(key) && logged.size < 100) {
      logged.add(key);
      const why =
        refusal.errorCode === 421
          ? 'it was addressed to another host name (a web page through DNS rebinding, or a proxy)'
          : 'a web page of another origin sent it';
      logger.warn({ host, ...(refusal.errorCode === 403 ? { origin } : {}) }, `sandbox refused a request: ${why}; see docs/sandbox.md`);
    }
    done(refusal);
  });
}

/**
 * Bodies as the real service takes them: form, multipart (every field becomes a parameter, every file part an
 * UploadedPart of up to 50 MB) and JSON, where an empty body is no parameters.
 */
async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  await app.register(formbody);
  // Multipart bodies: as clients send them when a call carries a file.
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: MAX_FILE_BYTES },
    onFile: async (part) => {
      const upload: UploadedPart = { uploaded: true, fileName: part.filename || undefined, mimeType: part.mimetype || undefined, data: await part.toBuffer() };
      (part as unknown as { value: UploadedPart }).value = upload;
    },
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new SandboxApiFailure(400, "Bad Request: can't parse JSON object"), undefined);
    }
  });
}

/** Failures answered in the Bot API's envelope (`ok: false`, `error_code`, `description`); a server error is logged with its URL redacted. */
function answerFailures(app: FastifyInstance, logger: Logger | undefined): void {
  app.setErrorHandler((error, request, reply) => {
    const failure =
      error instanceof SandboxApiFailure
        ? error
        : isTooLarge(error)
          ? new SandboxApiFailure(413, 'Request Entity Too Large')
          : typeof (error as { statusCode?: number }).statusCode === 'number' && (error as { statusCode: number }).statusCode < 500
            ? new SandboxApiFailure((error as { statusCode: number }).statusCode, `Bad Request: ${(error as Error).message}`)
            : new SandboxApiFailure(500, 'Internal Server Error');
    if (failure.errorCode >= 500) logger?.error({ err: error, url: redactUrl(request.url) }, 'sandbox request failed');
    if (failure.retryAfter !== undefined) void reply.header('retry-after', String(failure.retryAfter));
    return reply.code(failure.errorCode).send(failureEnvelope(failure));
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ ok: false, error_code: 404, description: 'Not Found' }));
}

/** A body or an uploaded file over the service's limits (the service answers these with 413). */
function isTooLarge(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_ERR_CTP_BODY_TOO_LARGE';
}

/** The sandbox as its users see it: the server, its store, listening and closing, and its events. */
function sandboxHandle(
  app: FastifyInstance,
  parts: {
    store: SandboxStore;
    guard: RequestGuard;
    webhooks: WebhookDispatcher;
    callbacks: CallbackQueries;
    callListeners: Set<(event: BotApiCallEvent) => void>;
  },
): Sandbox {
  const { store, guard, webhooks, callbacks, callListeners } = parts;
  return {
    app,
    store,
    async listen({ host = '127.0.0.1', port = 0 } = {}) {
      // The address it listens on is one of the names it answers to (all of this machine's for 0.0.0.0).
      guard.listeningOn(host);
      await app.listen({ host, port });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('the sandbox is not listening on a TCP port');
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${shownHost}:${address.port}`;
    },
    async close() {
      webhooks.stopAll();
      callbacks.stopAll();
      store.presence.close();
      for (const bot of store.allBots()) bot.queue.cancelWaitingPoll();
      await app.close();
    },
    onMessage: (listener) => store.onMessage(listener),
    onUpdate: (listener) => store.onUpdate(listener),
    onBotApiCall(listener) {
      callListeners.add(listener);
      return () => callListeners.delete(listener);
    },
  };
}
