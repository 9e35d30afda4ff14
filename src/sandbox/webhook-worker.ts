// Webhook delivery: POSTs each pending update to the bot's URL, in order within a chat, chats in parallel
// up to max_connections. An update leaves the queue only after a 2xx; failures are retried at once, then
// after growing pauses (a Retry-After header wins), and recorded for getwebhookinfo.
import { STATUS_CODES } from 'node:http';
import type { Update } from '@grammyjs/types';
import { Agent, requestThrough } from '../api/undici-parts.js';
import type { Logger } from '../log/logger.js';
import type { BotRecord, SandboxStore, WebhookConfig } from './store.js';

export interface WebhookTimingOptions {
  /** First pause after a repeated failure; doubles each time. Default 1000 ms. */
  retryBaseMs?: number;
  /** Longest pause. Default 60 000 ms. */
  retryMaxMs?: number;
  /** How long to wait for the webhook's answer. Default 60 000 ms. */
  timeoutMs?: number;
}

/** Runs a method a webhook answered with (`{"method": "sendMessage", ...}`); its result is not reported. */
export type AnswerRunner = (bot: BotRecord, method: string, params: Record<string, unknown>) => Promise<unknown>;

export class WebhookDispatcher {
  private readonly deliveries = new Map<number, WebhookDelivery>();
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 100 });
  private runner: AnswerRunner = async () => undefined;

  constructor(
    private readonly store: SandboxStore,
    private readonly timing: WebhookTimingOptions = {},
    private readonly logger?: Logger,
  ) {}

  setAnswerRunner(runner: AnswerRunner): void {
    this.runner = runner;
  }

  start(bot: BotRecord): void {
    this.stop(bot);
    if (!bot.webhook) return;
    const delivery = new WebhookDelivery(bot, bot.webhook, this.timing, this.agent, this.runner, this.logger);
    this.deliveries.set(bot.id, delivery);
    delivery.start();
  }

  stop(bot: BotRecord): void {
    this.deliveries.get(bot.id)?.stop();
    this.deliveries.delete(bot.id);
  }

  stopAll(): void {
    for (const bot of this.store.allBots()) this.stop(bot);
    void this.agent.close().catch(() => undefined);
  }
}

class WebhookDelivery {
  private readonly busyChats = new Set<number>();
  private readonly failures = new Map<number, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly abort = new AbortController();
  private active = 0;
  private stopped = false;
  private unsubscribe: () => void = () => undefined;
  /** Where the updates go: the webhook URL's origin, and its path with the query. */
  private readonly target: { readonly origin: string; readonly path: string };

  constructor(
    private readonly bot: BotRecord,
    private readonly config: WebhookConfig,
    private readonly timing: WebhookTimingOptions,
    private readonly agent: Agent,
    private readonly runner: AnswerRunner,
    private readonly logger: Logger | undefined,
  ) {
    const url = new URL(config.url);
    this.target = { origin: url.origin, path: `${url.pathname}${url.search}` };
  }

  start(): void {
    this.unsubscribe = this.bot.queue.onPush(() => this.pump());
    this.pump();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    for (const timer of this.timers) clearTimeout(timer);
    this.abort.abort();
  }

  /** Starts a delivery for the oldest pending update of every chat that has none in progress. */
  private pump(): void {
    const seen = new Set<number>();
    for (const update of this.bot.queue.list()) {
      if (this.stopped || this.active >= this.config.maxConnections) return;
      const chatId =
        update.message?.chat.id ??
        update.callback_query?.message?.chat.id ??
        update.chat_member?.chat.id ??
        update.my_chat_member?.chat.id ??
        update.chat_join_request?.chat.id ??
        0;
      if (seen.has(chatId)) continue;
      seen.add(chatId);
      if (this.busyChats.has(chatId)) continue;
      this.busyChats.add(chatId);
      this.active++;
      void this.deliver(update, chatId);
    }
  }

  private async deliver(update: Update, chatId: number): Promise<void> {
    let retryAfterMs: number | undefined;
    let error: string | undefined;
    try {
      const response = await requestThrough(this.agent, {
        origin: this.target.origin,
        path: this.target.path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.config.secretToken ? { 'x-telegram-bot-api-secret-token': this.config.secretToken } : {}),
        },
        body: JSON.stringify(update),
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.timing.timeoutMs ?? 60_000)]),
      });
      const body = await response.body.text();
      if (response.statusCode >= 200 && response.statusCode < 300) {
        this.bot.queue.remove(update.update_id);
        this.failures.delete(chatId);
        this.logger?.debug({ bot: this.bot.username, updateId: update.update_id }, 'webhook delivered an update');
        await this.runAnswer(body);
      } else {
        error = `Wrong response from the webhook: ${response.statusCode} ${STATUS_CODES[response.statusCode] ?? ''}`.trim();
        retryAfterMs = retryAfterHeader(response.headers['retry-after']);
      }
    } catch (caught) {
      if (this.stopped) return;
      error = connectionError(caught);
    } finally {
      this.active--;
    }
    if (this.stopped) return;
    if (error === undefined) {
      this.busyChats.delete(chatId);
      this.pump();
      return;
    }
    this.bot.webhookStatus = { lastErrorDate: Math.floor(Date.now() / 1000), lastErrorMessage: error };
    const failures = (this.failures.get(chatId) ?? 0) + 1;
    this.failures.set(chatId, failures);
    this.logger?.debug({ bot: this.bot.username, updateId: update.update_id, failures, error }, 'webhook delivery failed');
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.busyChats.delete(chatId);
        this.pump();
      },
      retryAfterMs ?? this.pause(failures),
    );
    this.timers.add(timer);
  }

  /** At once after the first failure, then base, 2×base, 4×base … up to the cap. */
  private pause(failures: number): number {
    if (failures <= 1) return 0;
    const base = this.timing.retryBaseMs ?? 1000;
    return Math.min(this.timing.retryMaxMs ?? 60_000, base * 2 ** (failures - 2));
  }

  private async runAnswer(body: string): Promise<void> {
    let call: unknown;
    try {
      call = JSON.parse(body);
    } catch {
      return;
    }
    if (!call || typeof call !== 'object' || typeof (call as { method?: unknown }).method !== 'string') return;
    const { method, ...params } = call as { method: string } & Record<string, unknown>;
    if (!runsInWebhookAnswer(method.toLowerCase())) {
      this.logger?.debug({ bot: this.bot.username, method }, 'webhook answer ignored: the service runs no such method there');
      return;
    }
    try {
      await this.runner(this.bot, method.toLowerCase(), params);
    } catch (failure) {
      this.logger?.debug({ bot: this.bot.username, method, error: (failure as Error).message }, 'webhook answer call failed');
    }
  }
}

/** The service ignores a webhook answer that would change the webhook, log out, close or only read (get*). */
export function runsInWebhookAnswer(method: string): boolean {
  return method !== 'setwebhook' && method !== 'deletewebhook' && method !== 'close' && method !== 'logout' && !method.startsWith('get');
}

function retryAfterHeader(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  const seconds = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function connectionError(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const name = (error as { name?: unknown })?.name;
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (name === 'TimeoutError') return 'Read timeout expired';
  return `Connection error: ${typeof code === 'string' ? code : typeof name === 'string' ? name : 'unknown'}`;
}
