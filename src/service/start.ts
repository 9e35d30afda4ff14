// Wires the service together and runs it: rules, Bot API client, dispatcher, reply sender, ingress,
// health and metrics. Programmatic on purpose: `hearsay run` and an embedded demo both call it.
import { ApiError } from '../api/errors.js';
import { BotApiClient } from '../api/client.js';
import type { BotApi } from '../api/types.js';
import type { ServiceConfig } from '../config/types.js';
import { formatListenAddress } from '../config/listen-address.js';
import { UpdateDispatcher } from '../delivery/dispatcher.js';
import { tokenRejectedMessage } from '../api/failure.js';
import type { HandledUpdates } from '../delivery/handled-updates.js';
import { OutgoingRateLimiter } from '../delivery/rate-limiter.js';
import { ReplySender } from '../delivery/reply-sender.js';
import { PollingIngress } from '../ingress/polling.js';
import type { WebhookIngress } from '../ingress/webhook.js';
import { IngressError } from '../ingress/errors.js';
import { InstanceLock, InstanceLockedError } from '../journal/instance-lock.js';
import { UpdateJournal, botStateDir } from '../journal/update-journal.js';
import { WebhookInbox } from '../journal/webhook-inbox.js';
import type { Logger } from '../log/logger.js';
import type { AdminServer } from '../ops/admin-server.js';
import { HealthState } from '../ops/health.js';
import { ServiceMetrics } from '../ops/metrics.js';
import { ObservedBotApi } from '../ops/observed-bot-api.js';
import { RuleLoadError, type RuleProblem } from '../diagnostics/problem.js';
import { RuleWatcher } from '../rules/watch.js';
import { StartupError, rulesStartupError } from './errors.js';
import { createUpdateHandler } from './handle-update.js';
import { listenFailureMessage, settingListenHints } from '../ops/listen-failure.js';

/** Time a stop may take beyond delivery.shutdown_timeout: the offset confirmation and closing connections. */
const STOP_MARGIN_MS = 2000;
/** After the drain deadline aborts handlers, how long they get to notice. */
const DRAIN_GRACE_MS = 500;
/** Longest wait for the final offset confirmation. */
const OFFSET_CONFIRM_MS = 5000;
/** Least time any step gets, even past the deadline (a healthy service answers in milliseconds). */
const MIN_STEP_MS = 100;

/** True when `work` settles (either way) within `ms`; false when the wait was given up. */
async function settlesWithin(work: Promise<void> | undefined, ms: number): Promise<boolean> {
  if (!work) return true;
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return settled;
}

export interface StartServiceOptions {
  logger: Logger;
  /** Defaults to a BotApiClient for config.baseUrl and config.token. */
  api?: BotApi;
  /** Defaults to the durable journal in config.dataDir (one per bot id). */
  handledUpdates?: HandledUpdates;
  /** Debounce of the rule directory watcher. */
  ruleDebounceMs?: number;
}

export interface RunningService {
  readonly mode: ServiceConfig['mode'];
  readonly botUsername: string;
  /** Local URL of the webhook server (webhook mode) or the admin server (polling mode), if any. */
  readonly serverUrl: string | null;
  readonly metrics: ServiceMetrics;
  /** Settles when the ingress ends by itself: rejects with an IngressError on a fatal failure. */
  readonly done: Promise<void>;
  /** Reloads the rules now (SIGHUP); true when a new set was swapped in. */
  reloadRules(): Promise<boolean>;
  /**
   * Calls `listener` after every rule reload: with the problems when it failed (the last good rules keep
   * answering), with an empty list when it succeeded. Returns an unsubscribe function.
   */
  onRuleReload(listener: (problems: readonly RuleProblem[]) => void): () => void;
  /** Graceful, idempotent, bounded by delivery.shutdown_timeout. */
  stop(): Promise<void>;
}

export async function startService(config: ServiceConfig, options: StartServiceOptions): Promise<RunningService> {
  const { logger } = options;
  // The Redis store is read and checked already; the service runs on it once its ledger is wired in.
  if (config.store.kind === 'redis') throw new StartupError('state', `store ${config.store.url}: the Redis store is not available in this build yet`);
  const metrics = new ServiceMetrics();
  const health = new HealthState(config.mode);
  const cleanups: Array<() => Promise<void>> = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };

  try {
    const rules = new RuleWatcher({ path: config.rulesPath, logger, ...(options.ruleDebounceMs !== undefined ? { debounceMs: options.ruleDebounceMs } : {}) });
    let ruleSet;
    try {
      ruleSet = await rules.start();
    } catch (error) {
      await rules.close().catch(() => undefined);
      if (error instanceof RuleLoadError) {
        throw rulesStartupError(config.rulesPath, error.problems);
      }
      const message =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? `the rule path ${config.rulesPath} does not exist`
          : `cannot load the rules: ${(error as Error).message}`;
      throw new StartupError('rules', message, [], { cause: error });
    }
    cleanups.push(() => rules.close());
    health.rulesActive = ruleSet.rules.length;
    metrics.rulesActive.set(ruleSet.rules.length);
    rules.on('reload', (event) => {
      health.rulesActive = event.ruleCount;
      metrics.rulesActive.set(event.ruleCount);
      metrics.reloads.inc({ result: 'success' });
      metrics.reloadSuccess.set(1);
    });
    rules.on('reloadFailed', () => {
      metrics.reloads.inc({ result: 'failure' });
      metrics.reloadSuccess.set(0);
    });

    const rawApi = options.api ?? new BotApiClient({ baseUrl: config.baseUrl, token: config.token, logger, timeoutMs: config.api.timeoutMs });
    cleanups.push(() => rawApi.close());
    const api = new ObservedBotApi(rawApi, health);

    let botUsername: string;
    let botId: number;
    try {
      const me = await api.getMe({ timeoutMs: 15_000 });
      botUsername = me.username;
      botId = me.id;
    } catch (error) {
      if (error instanceof ApiError && error.errorCode === 401) {
        const where = config.tokenSource === 'BOT_TOKEN_FILE' ? 'the file named by BOT_TOKEN_FILE' : 'BOT_TOKEN';
        throw new StartupError(
          'unauthorized',
          `the token was rejected (401 Unauthorized); check ${where}: it must be the bot's current token, as the bot-creation assistant gave it`,
        );
      }
      throw new StartupError('unreachable', `cannot reach the Bot API at ${config.baseUrl}: ${(error as Error).message}`, [], { cause: error });
    }
    logger.info({ bot: botUsername, mode: config.mode, rules: ruleSet.rules.length }, 'bot identified');

    const stateDir = botStateDir(config.dataDir, botId);
    // Before anything is read or sent: a second instance must leave the first one's state and webhook alone.
    let lock: InstanceLock;
    try {
      lock = InstanceLock.acquire(stateDir, config.mode);
    } catch (error) {
      if (error instanceof InstanceLockedError) {
        throw new StartupError('locked', `@${botUsername}: ${error.message}; stop it first (one instance per bot and data directory)`, [], { cause: error });
      }
      throw new StartupError('state', `cannot lock the service state in ${stateDir}: ${(error as Error).message}; check data_dir (HEARSAY_DATA_DIR)`, [], {
        cause: error,
      });
    }
    cleanups.push(async () => lock.release());
    let handled: HandledUpdates;
    let inbox: WebhookInbox | null = null;
    try {
      handled = options.handledUpdates ?? UpdateJournal.open({ dir: stateDir, logger });
      if (config.mode === 'webhook') inbox = WebhookInbox.open({ dir: stateDir, logger });
    } catch (error) {
      throw new StartupError('state', `cannot open the service state in ${stateDir}: ${(error as Error).message}; check data_dir (HEARSAY_DATA_DIR)`, [], {
        cause: error,
      });
    }
    const handledRef = handled;
    cleanups.push(async () => {
      await handledRef.close?.();
      inbox?.close();
    });
    const rateLimiter = config.rateLimits ? new OutgoingRateLimiter(config.rateLimits) : undefined;
    const sender = new ReplySender({ api, logger, metrics, maxAttempts: config.delivery.maxAttempts, ...(rateLimiter ? { rateLimiter } : {}) });
    // A 401 while running: stop taking updates at once (webhook: 503, polling: no more fetching) and end
    // the service with the operator's message; whatever is not answered stays with the service or the inbox.
    let failIntake!: (error: Error) => void;
    const intakeFailed = new Promise<never>((_, reject) => (failIntake = reject));
    intakeFailed.catch(() => undefined);
    let stopIntake: () => void = () => undefined;
    const dispatcher = new UpdateDispatcher({
      concurrency: config.delivery.concurrency,
      logger,
      metrics,
      onTokenRejected: () => {
        failIntake(new IngressError('unauthorized', tokenRejectedMessage(config.tokenSource)));
        stopIntake();
      },
      handler: createUpdateHandler({ rules, botUsername, sender, api, handled, logger, metrics }),
    });

    let ingress: PollingIngress | WebhookIngress;
    let admin: AdminServer | null = null;
    let serverUrl: string | null = null;
    if (config.mode === 'webhook') {
      // Fastify is loaded only when a server is needed (webhook mode, or the admin server): less memory.
      const { WebhookIngress } = await import('../ingress/webhook.js');
      const webhook = new WebhookIngress({
        api,
        dispatcher,
        handled,
        inbox: inbox!,
        logger,
        metrics,
        health,
        publicUrl: config.webhook.publicUrl!,
        listen: config.webhook.listen,
        path: config.webhook.path,
        secret: config.webhook.secret,
        tls: config.webhook.tls,
        maxBodyBytes: config.webhook.maxBodyBytes,
        maxConnections: config.webhook.maxConnections,
        connections: config.webhook.connections,
        maxPending: config.delivery.maxPending,
      });
      try {
        await webhook.start();
      } catch (error) {
        throw new StartupError('ingress', (error as Error).message, [], { cause: error });
      }
      cleanups.push(() => webhook.close());
      ingress = webhook;
      serverUrl = webhook.address;
    } else {
      if (config.admin.listen) {
        const { AdminServer } = await import('../ops/admin-server.js');
        admin = new AdminServer({ health, metrics });
        try {
          serverUrl = await admin.listen(config.admin.listen);
        } catch (error) {
          const hints = settingListenHints('admin.listen', 'HEARSAY_ADMIN_LISTEN', '--admin-listen');
          throw new StartupError('ingress', `admin server: ${listenFailureMessage(formatListenAddress(config.admin.listen), error, hints)}`, [], {
            cause: error,
          });
        }
        cleanups.push(() => admin!.close());
        logger.info({ listen: serverUrl }, 'admin server listening (/healthz, /metrics)');
      }
      const polling = new PollingIngress({
        api,
        dispatcher,
        logger,
        metrics,
        timeoutSeconds: config.polling.timeoutSeconds,
        limit: config.polling.limit,
        deleteWebhook: config.polling.deleteWebhook,
        onOffsetConfirmed: (offset) => handled.confirmBelow?.(offset),
        tokenSource: config.tokenSource,
      });
      await polling.start();
      ingress = polling;
    }

    stopIntake = () => ingress.stopAccepting();

    let stopping: Promise<void> | undefined;
    const stop = () => {
      stopping ??= (async () => {
        const started = performance.now();
        // The whole stop fits in delivery.shutdown_timeout plus a fixed margin, even with the service gone:
        // every step after the drain gets only what is left of that budget.
        const deadline = started + config.delivery.shutdownTimeoutMs + STOP_MARGIN_MS;
        const left = () => Math.max(MIN_STEP_MS, deadline - performance.now());
        logger.info({ in_flight: dispatcher.inFlight }, 'stopping');
        // Order matters: stop sources, drain, confirm the offset (polling close), close servers, flush.
        ingress.stopAccepting();
        const clean = await dispatcher.drain(config.delivery.shutdownTimeoutMs, Math.min(DRAIN_GRACE_MS, left()));
        // Requests whose inbox write was still running at stopAccepting stay in the inbox for the next start.
        dispatcher.close();
        const confirmMs = Math.min(OFFSET_CONFIRM_MS, left() - MIN_STEP_MS);
        const steps: Array<[string, () => Promise<void> | undefined]> = [
          ['ingress', () => (ingress instanceof PollingIngress ? ingress.close(confirmMs) : ingress.close())],
          ['admin server', () => admin?.close()],
          ['rule watcher', () => rules.close()],
          ['bot api client', () => rawApi.close()],
        ];
        let apiClosed = true;
        for (const [name, step] of steps) {
          if (await settlesWithin(step(), left())) continue;
          logger.warn({ step: name }, 'stop deadline reached; not waiting for this step any longer');
          if (name === 'bot api client') apiClosed = false;
        }
        // Requests still hanging on an unresponsive service would keep the process alive: cut them.
        if (!apiClosed) await settlesWithin(rawApi.destroy?.(), MIN_STEP_MS);
        // Synchronous and local: the state is always written, whatever the service did.
        await handled.close?.();
        inbox?.close();
        lock.release();
        logger.info({ clean, duration_ms: Math.round(performance.now() - started) }, 'stopped');
        logger.flush?.();
      })();
      return stopping;
    };

    return {
      mode: config.mode,
      botUsername,
      serverUrl,
      metrics,
      done: Promise.race([ingress.done, intakeFailed]),
      reloadRules: () => rules.reload(),
      onRuleReload: (listener) => {
        const succeeded = () => listener([]);
        const failed = (event: { problems: RuleProblem[] }) => listener(event.problems);
        rules.on('reload', succeeded);
        rules.on('reloadFailed', failed);
        return () => {
          rules.off('reload', succeeded);
          rules.off('reloadFailed', failed);
        };
      },
      stop,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
