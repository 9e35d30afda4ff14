// The Bot API endpoint `/bot<token>/<method>` (GET or POST; JSON, form or query parameters): checks the
// token, counts the call, applies any injected fault, then runs the method and wraps its result. Each call
// run is told to the observer (tests count, for example, how often a press was answered).
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../log/logger.js';
import type { CallbackQueries } from './callback-queries.js';
import { SandboxApiFailure, notFound, tooManyRequests, unauthorized } from './api-failure.js';
import type { FaultAction, FaultInjector } from './faults.js';
import type { MethodContext } from './method-context.js';
import { METHODS } from './method-table.js';
import type { Params } from './params.js';
import type { RateLimiter } from './rate-limiter.js';
import type { SandboxStore } from './store.js';
import type { WebhookDispatcher } from './webhook-worker.js';

export interface BotApiRoutesOptions {
  store: SandboxStore;
  faults: FaultInjector;
  limiter: RateLimiter;
  webhooks: WebhookDispatcher;
  callbacks: CallbackQueries;
  logger?: Logger | undefined;
  /** Told of every method call run (an injected fault is not a run), with its outcome. */
  onCall?: ((event: BotApiCallEvent) => void) | undefined;
}

/** A Bot API call the sandbox ran: which bot (username), the lowercase method, its parameters, and the outcome. */
export interface BotApiCallEvent {
  bot: string;
  method: string;
  params: Params;
  ok: boolean;
  /** The failure's description when not ok. */
  description?: string;
}

export async function botApiRoutes(app: FastifyInstance, options: BotApiRoutesOptions): Promise<void> {
  const { store, faults, limiter, webhooks, callbacks, logger, onCall } = options;

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const { token, method: rawMethod } = request.params as { token: string; method: string };
    const bot = store.botByToken(token);
    if (!bot) throw unauthorized();
    const method = rawMethod.toLowerCase();
    const fault = faults.next(bot.username, method);
    if (fault) {
      logger?.debug({ bot: bot.username, method, fault }, 'sandbox injects a fault');
      if (await applyFault(fault, request, reply)) return reply;
    }
    const run = METHODS.get(method);
    if (!run) throw notFound();
    const context: MethodContext = {
      store,
      bot,
      limiter,
      webhooks,
      callbacks,
      onConnectionClose(listener) {
        const onClose = (): void => {
          if (!reply.raw.writableFinished) listener();
        };
        reply.raw.on('close', onClose);
        return () => reply.raw.off('close', onClose);
      },
    };
    const params = mergedParams(request);
    const result = await observed(onCall, { bot: bot.username, method, params }, () => run(context, params));
    logger?.debug({ bot: bot.username, method, ok: true }, 'sandbox bot api call');
    // What the bot sees: its own file ids, and a copy it cannot change the stored messages through.
    return { ok: true, result: store.files.viewFor(bot.id, result) };
  };

  app.route({ method: ['GET', 'POST'], url: '/bot:token/:method', handler });
}

/** Runs `call`, telling `onCall` how it went. */
export async function observed<T>(onCall: BotApiRoutesOptions['onCall'], about: Omit<BotApiCallEvent, 'ok'>, call: () => Promise<T> | T): Promise<T> {
  try {
    const result = await call();
    onCall?.({ ...about, ok: true });
    return result;
  } catch (error) {
    onCall?.({ ...about, ok: false, description: error instanceof SandboxApiFailure ? error.description : String(error) });
    throw error;
  }
}

/** Applies a fault; returns true when the request was consumed (connection reset). */
async function applyFault(fault: FaultAction, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  if (fault.delayMs !== undefined) await sleep(fault.delayMs);
  if (fault.reset) {
    reply.hijack();
    request.raw.socket.destroy();
    return true;
  }
  if (fault.status !== undefined) {
    if (fault.status === 429) throw tooManyRequests(fault.retryAfter ?? 1);
    throw new SandboxApiFailure(fault.status, fault.description ?? defaultDescription(fault.status), fault.retryAfter);
  }
  return false;
}

function defaultDescription(status: number): string {
  if (status >= 500) return 'Internal Server Error';
  if (status === 403) return 'Forbidden: injected fault';
  return 'Bad Request: injected fault';
}

function mergedParams(request: FastifyRequest): Params {
  const query = (request.query ?? {}) as Params;
  const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Params) : {};
  return { ...query, ...body };
}
