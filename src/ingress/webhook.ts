// Webhook ingress, transport only: a Fastify server the service POSTs updates to. Each request is checked
// (secret in constant time, size, shape) and handed to the pipeline, which holds it while the update is handled
// (or stores it durably first); the answer follows what the pipeline says: 200 once handled or stored (or already
// known), 503 when it cannot take it now (overloaded, closing, cut short, the store failing), 400 when it can
// never be stored. The common POST is read on node:http ahead of Fastify's router (webhook-post.ts); both paths
// give the same answers, made here once.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { BotApi, Update } from '../api/types.js';
import type { ListenAddress, WebhookConnectionLimits } from '../config/types.js';
import { formatListenAddress } from '../config/listen-address.js';
import type { Logger } from '../log/logger.js';
import type { HealthState } from '../ops/health.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { StoreUnavailableError, UnstorableUpdateError } from '../pipeline/ports.js';
import type { AcceptOutcome } from '../pipeline/update-pipeline.js';
import { registerOpsRoutes } from '../ops/ops-routes.js';
import { serverUrl } from '../ops/server-url.js';
import { HearsayError } from '../errors/hearsay-error.js';
import { ALLOWED_UPDATES } from './polling.js';
import { createSecretCheck } from './secret-token.js';
import { webhookUpdateSchema } from '../generated/webhook-update-schema.js';
import { validate as validateWebhookUpdate } from '../generated/webhook-update-validator.js';
import { listenFailureMessage, settingListenHints } from '../ops/listen-failure.js';
import { createWebhookPostPath, type BodyProblem, type WebhookAnswer } from './webhook-post.js';

/** What the webhook needs from the update pipeline. */
export interface WebhookPipeline {
  /**
   * Handles the update (or stores it durably) before resolving with what to answer (see AcceptOutcome);
   * `bodyBytes`, when known, is the size of the JSON text it came in.
   */
  receive(update: Update, bodyBytes?: number): Promise<AcceptOutcome>;
  /** Updates accepted and not finished yet. */
  readonly inFlight: number;
}

export interface WebhookIngressOptions {
  api: BotApi;
  pipeline: WebhookPipeline;
  logger: Logger;
  metrics: ServiceMetrics;
  health: HealthState;
  /** The URL given to setwebhook. */
  publicUrl: string;
  listen: ListenAddress;
  path: string;
  secret: string;
  tls: { certPath: string; keyPath: string } | null;
  maxBodyBytes: number;
  maxConnections: number;
  /** Header, body and idle timeouts and the cap on open connections (slow clients are cut off). */
  connections: WebhookConnectionLimits;
  /** The update kinds given to setwebhook; {@link ALLOWED_UPDATES} without it. */
  allowedUpdates?: readonly string[];
}

/** At most one overload warning this often (see WebhookIngress.noteOverload). */
const OVERLOAD_LOG_EVERY_MS = 10_000;

export class WebhookIngress {
  private app: FastifyInstance | undefined;
  private closing = false;
  private closed: Promise<void> | undefined;
  private localUrl: string | null = null;
  private readonly secretMatches: (header: unknown) => boolean;
  /** When the overload warning was last logged, and the updates refused for overload since. */
  private overload = { loggedAt: -Infinity, refused: 0 };

  constructor(private readonly options: WebhookIngressOptions) {
    this.secretMatches = createSecretCheck(options.secret);
  }

  /** The server's local URL (real port), once listening. */
  get address(): string | null {
    return this.localUrl;
  }

  /** Connections open on the server right now (at most `connections.limit`). */
  openConnections(): Promise<number> {
    const server = this.app?.server;
    if (!server) return Promise.resolve(0);
    return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
  }

  async start(): Promise<void> {
    const { logger, listen, tls } = this.options;
    const certificate = tls ? { cert: await readFile(tls.certPath), key: await readFile(tls.keyPath) } : null;
    const limits = connectionOptions(this.options.connections);
    const takePost = createWebhookPostPath({
      path: this.options.path,
      maxBodyBytes: this.options.maxBodyBytes,
      admits: (request) => !this.closing && this.secretMatches(request.headers['x-telegram-bot-api-secret-token']),
      receive: (update, bodyBytes) => this.handle(update as Update, bodyBytes),
      invalid: (problem) => this.invalidBody(problem),
      failed: (error) => this.failed(error),
    });
    const app = Fastify({
      logger: false,
      bodyLimit: this.options.maxBodyBytes,
      forceCloseConnections: true,
      ...limits.fastify,
      // The server Fastify would make, with the update POST looked at first (see webhook-post.ts).
      serverFactory: (fastifyHandler: http.RequestListener, settings: FastifyServerOptions) =>
        createServer(certificate, limits.server, settings, (request, response) => takePost(request, response) || fastifyHandler(request, response)),
    } as object) as unknown as FastifyInstance;
    this.app = app;
    // Beyond the cap a new connection is closed on arrival: buffered bodies stay within cap × max_body_bytes.
    app.server.maxConnections = this.options.connections.limit;
    // Only the JSON parser: a text/plain body is 415 Unsupported Media Type, not a string that fails validation.
    app.removeContentTypeParser('text/plain');
    // The body's one schema, validated by code generated at build time (schemas/webhook-update.schema.json): no
    // schema compiler at start. No type coercion: a string update_id is a wrong body, not a number to guess at.
    app.setValidatorCompiler(() => validateWebhookUpdate);
    app.setErrorHandler((error: FastifyError, _request, reply) => this.onError(error, reply));
    registerOpsRoutes(app, { health: this.options.health, metrics: this.options.metrics });
    app.post(
      this.options.path,
      { schema: { body: webhookUpdateSchema }, onRequest: (request, reply, next) => this.gate(request, reply, next) },
      (request, reply) => this.accept(request.body as Update, reply),
    );

    try {
      await app.listen({ host: listen.host, port: listen.port });
    } catch (error) {
      await app.close().catch(() => undefined);
      const hints = settingListenHints('webhook.listen', 'HEARSAY_WEBHOOK_LISTEN', '--webhook-listen');
      throw new HearsayError('HS_ERR_LISTEN_FAILED', [listenFailureMessage(formatListenAddress(listen), error, hints)], { cause: error });
    }
    this.localUrl = serverUrl(app, certificate ? 'https' : 'http');
    logger.info({ listen: this.localUrl, path: this.options.path, tls: certificate !== null }, 'webhook server listening');

    try {
      await this.setWebhook(this.options.allowedUpdates ?? ALLOWED_UPDATES);
    } catch (error) {
      await app.close();
      const detail = error instanceof Error ? error.message : String(error);
      throw new HearsayError('HS_ERR_SET_WEBHOOK_FAILED', [this.options.publicUrl, detail], { cause: error });
    }
    logger.info({ url: this.options.publicUrl }, 'webhook set');
  }

  /**
   * Asks the service for other update kinds (after a reload whose rules need `chat_member`, or no longer do):
   * setwebhook again with the same URL and secret. A refusal is logged; the webhook keeps its old kinds.
   */
  async changeAllowedUpdates(kinds: readonly string[]): Promise<void> {
    try {
      await this.setWebhook(kinds);
      this.options.logger.info({ allowed_updates: kinds }, 'webhook update kinds changed');
    } catch (error) {
      this.options.logger.warn({ allowed_updates: kinds, err: error instanceof Error ? error.message : String(error) }, 'webhook update kinds not changed');
    }
  }

  private async setWebhook(kinds: readonly string[]): Promise<void> {
    await this.options.api.setWebhook({
      url: this.options.publicUrl,
      secret_token: this.options.secret,
      max_connections: this.options.maxConnections,
      allowed_updates: [...kinds],
    });
  }

  /** From now on every webhook request gets 503 + Retry-After, so the service keeps the update and resends it. */
  stopAccepting(): void {
    this.closing = true;
  }

  close(): Promise<void> {
    this.stopAccepting();
    this.closed ??= this.app?.close() ?? Promise.resolve();
    return this.closed;
  }

  /** Runs before the body is read: wrong secret → 401, closing → 503. A callback hook (no promise per request); it answers or calls `next`. */
  private gate(request: FastifyRequest, reply: FastifyReply, next: () => void): void {
    if (!this.secretMatches(request.headers['x-telegram-bot-api-secret-token'])) {
      this.options.metrics.error('webhook_unauthorized');
      this.options.logger.warn({ remote: request.ip }, 'webhook request with a missing or wrong secret token rejected');
      reply.code(401).send({ ok: false, error: 'missing or wrong X-Telegram-Bot-Api-Secret-Token' });
      return;
    }
    if (this.closing) {
      send(reply, unavailable('shutting down'));
      return;
    }
    next();
  }

  /**
   * An update POST that reached Fastify's route (see webhook-post.ts for the usual one). The answer is sent here and
   * nothing is returned to Fastify (a returned reply is a thenable Fastify would wait on once more).
   */
  private accept(update: Update, reply: FastifyReply): Promise<void> {
    return this.handle(update).then((answer) => void send(reply, answer));
  }

  /** Every valid update passes here: one then() on what the pipeline says, no async frame; never rejects. */
  private handle(update: Update, bodyBytes?: number): Promise<WebhookAnswer> {
    if (this.closing) return Promise.resolve(unavailable('shutting down'));
    return this.options.pipeline.receive(update, bodyBytes).then(
      (outcome) => this.answer(outcome, update.update_id),
      (error: unknown) => this.refuse(error, update.update_id),
    );
  }

  /** The pipeline could neither handle nor keep the update: 400 when it never can, else 503 (the service resends it). */
  private refuse(error: unknown, id: number): WebhookAnswer {
    const { logger, metrics } = this.options;
    if (error instanceof UnstorableUpdateError) {
      // It can never be stored, so it is refused, not acknowledged and lost: the service applies its own rules.
      metrics.error('webhook_invalid');
      logger.warn({ update_id: id, problem: error.message }, 'webhook update cannot be stored; refused');
      return { status: 400, error: 'update cannot be stored (nested too deeply)' };
    }
    if (error instanceof StoreUnavailableError) {
      // Logged once by the store when the outage began: the service resends the update after Retry-After.
      metrics.error('store_unavailable');
      logger.debug({ update_id: id }, 'the store is unavailable; asking the service to resend the update');
      return unavailable('the store is unavailable');
    }
    metrics.error('unknown');
    logger.error({ err: error, update_id: id }, 'cannot keep the update in the inbox; asking the service to resend it');
    return unavailable('cannot store the update');
  }

  /** What to answer for the pipeline's outcome: 200 for handled, stored or known; 503 otherwise. */
  private answer(outcome: AcceptOutcome, id: number): WebhookAnswer {
    const { pipeline, logger, metrics } = this.options;
    if (outcome === 'overloaded') {
      metrics.error('webhook_overloaded');
      this.noteOverload(pipeline.inFlight);
      return unavailable('overloaded');
    }
    if (outcome === 'interrupted') {
      // Neither handled nor stored (a stop, a refused token or a store outage came first): the service resends it.
      logger.debug({ update_id: id }, 'update not handled; asking the service to resend it');
      return unavailable(this.closing ? 'shutting down' : 'the update could not be handled now');
    }
    if (outcome === 'id_busy') {
      // Another message under the id of one still being handled: the service started a new id sequence. Not
      // acknowledged (one inbox entry per id): the service sends it again, once the old one is done.
      logger.info({ update_id: id }, 'an update reuses the id of one still being handled (a new id sequence); asking the service to resend it');
      return unavailable('an update with this id is still being handled');
    }
    if (outcome === 'duplicate') logger.debug({ update_id: id }, 'update delivered again; already accepted, not answered twice');
    return OK;
  }

  /**
   * Warns of refusals for overload at most every {@link OVERLOAD_LOG_EVERY_MS}, with how many were refused since
   * the last warning: under overload the service resends quickly, and a line per refusal would flood the log (and
   * cost a write each). The metrics count every one.
   */
  private noteOverload(inFlight: number): void {
    this.overload.refused += 1;
    const now = performance.now();
    if (now - this.overload.loggedAt < OVERLOAD_LOG_EVERY_MS) return;
    this.options.logger.warn(
      { in_flight: inFlight, refused: this.overload.refused },
      'too many updates in flight; asking the service to resend later (refused: updates refused since the last such warning, at most one every 10 s)',
    );
    this.overload = { loggedAt: now, refused: 0 };
  }

  /** A body that is not an update (not JSON, or not its shape): 400, on either path. */
  private invalidBody({ message, validation }: BodyProblem): WebhookAnswer {
    this.options.metrics.error('webhook_invalid');
    if (!validation) return { status: 400, error: message };
    this.options.logger.warn({ problem: message }, 'webhook body is not a valid update');
    return { status: 400, error: `invalid update: ${message}` };
  }

  /** An error nobody expected (a bug): logged, and answered 500 without its details. */
  private failed(error: unknown): WebhookAnswer {
    this.options.logger.error({ err: error }, 'webhook request failed');
    return { status: 500, error: 'internal error' };
  }

  private onError(error: FastifyError, reply: FastifyReply): FastifyReply {
    const status = error.statusCode ?? 500;
    if (error.validation) return send(reply, this.invalidBody({ message: error.message, validation: true }));
    if (status >= 500) return send(reply, { ...this.failed(error), status });
    this.options.metrics.error('webhook_invalid');
    const message = status === 413 ? `body larger than ${this.options.maxBodyBytes} bytes` : error.message;
    return send(reply, { status, error: message });
  }
}

/**
 * The HTTP/1 server Fastify makes for these options (it leaves that to `serverFactory` when given one), with
 * `listener` in front: the header and request deadlines, the keep-alive time, and the socket timeout (none here).
 */
function createServer(
  certificate: { cert: Buffer; key: Buffer } | null,
  serverOptions: http.ServerOptions,
  settings: FastifyServerOptions,
  listener: http.RequestListener,
): http.Server {
  const server = certificate ? https.createServer({ ...certificate, ...serverOptions }, listener) : http.createServer(serverOptions, listener);
  server.keepAliveTimeout = settings.keepAliveTimeout ?? server.keepAliveTimeout;
  server.requestTimeout = settings.requestTimeout ?? server.requestTimeout;
  server.setTimeout(settings.connectionTimeout ?? 0);
  return server;
}

/** Node server options for the limits: the header and whole-request deadlines, checked often enough to matter. */
function connectionOptions({ headerTimeoutMs, bodyTimeoutMs, idleTimeoutMs }: WebhookConnectionLimits) {
  const requestTimeout = headerTimeoutMs + bodyTimeoutMs;
  return {
    server: { headersTimeout: headerTimeoutMs, requestTimeout, connectionsCheckingInterval: Math.min(1000, Math.ceil(headerTimeoutMs / 4)) },
    // Set on the server by createServer. No socket timeout besides these (Fastify's connectionTimeout): the header
    // and request deadlines cover a request on its way in, the keep-alive timeout a connection between requests, and
    // a socket timeout would cost a timer per request.
    fastify: { requestTimeout, keepAliveTimeout: idleTimeoutMs },
  };
}

const OK: Readonly<WebhookAnswer> = Object.freeze({ status: 200 });

/** 503 with Retry-After: the service keeps the update and sends it again. */
function unavailable(why: string): WebhookAnswer {
  return { status: 503, error: why, retryAfter: true };
}

/** Sends `answer` through Fastify, as sendAnswer (webhook-post.ts) writes it on the other path. */
function send(reply: FastifyReply, answer: WebhookAnswer): FastifyReply {
  if (answer.error === undefined) return reply.code(answer.status).send();
  if (answer.retryAfter) reply.header('retry-after', '1');
  return reply.code(answer.status).send({ ok: false, error: answer.error });
}
