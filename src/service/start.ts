// Wires the service together and runs it, one part at a time: rules, bot identity, store, pipeline,
// ingress, stop. Programmatic on purpose: `hearsay run` and an embedded demo both call it.
import { tokenRevokedError } from '../api/failure.js';
import type { BotApi } from '../api/types.js';
import type { ServiceConfig } from '../config/types.js';
import type { Logger } from '../log/logger.js';
import type { RuleProblem } from '../diagnostics/problem.js';
import { HealthState } from '../ops/health.js';
import { ServiceMetrics } from '../ops/metrics.js';
import type { UpdatePipeline } from '../pipeline/update-pipeline.js';
import type { RuleWatcher } from '../rules/watch.js';
import { createServiceBotApi } from './bot-api.js';
import { identifyBot, type BotIdentity } from './bot-identity.js';
import { startIngress } from './start-ingress.js';
import { onRuleReload, startRules } from './start-rules.js';
import { openStore, type OpenedStore } from '../store/open-store.js';
import { watchSharedStore } from '../pipeline/shared-store-watch.js';
import { createStop } from './stop.js';
import { FlowTimeouts } from '../pipeline/flow-timeouts.js';
import { OutboxRoom } from '../pipeline/outbox.js';
import { createOutbox, planSchedules } from './start-outbox.js';
import { handoffPerformer } from './handoff-wiring.js';
import { chatSequencer, createPipeline, openBackends, type Cleanups } from './start-pipeline.js';
import { serveStateRequests } from '../store/file/serve-state-requests.js';
import { HearsayError } from '../errors/hearsay-error.js';
import { CommandMenu } from './command-menu.js';
import { sandboxCompanion, sandboxRestarted, type SandboxCompanion } from './sandbox-companion.js';

export interface StartServiceOptions {
  logger: Logger;
  /** The wire (a test's double); defaults to a BotApiClient for config.baseUrl and config.token. Wrapped in the service's transformers either way. */
  api?: BotApi;
  /** Debounce of the rule directory watcher. */
  ruleDebounceMs?: number;
}

export interface RunningService {
  readonly mode: ServiceConfig['mode'];
  readonly botUsername: string;
  /** Local URL of the webhook server (webhook mode) or the admin server (polling mode), if any. */
  readonly serverUrl: string | null;
  readonly metrics: ServiceMetrics;
  /** Settles when the service ends by itself: rejects with a HearsayError on a fatal failure (a refused token, polling refused). */
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
  const metrics = new ServiceMetrics();
  const health = new HealthState(config.mode);
  const cleanups: Cleanups = [];
  try {
    const core = await openCore(config, options, metrics, health, cleanups);
    const { rules, api, store, companion } = core;
    // A 401 while running: stop taking updates at once (webhook: 503, polling: no more fetching) and end
    // the service with the operator's message; whatever is not answered stays with the service or the inbox.
    const intake = intakeFailure();
    const { pipeline, outbox, closeStore } = await startWork(config, core, logger, metrics, () => intake.fail(config.tokenSource), cleanups);
    const ingress = await startIngress({ config, api, pipeline, logger, metrics, health, leadership: store.shared?.leadership ?? null, rules });
    // The "/" menu from the rules' command descriptions: set now, and again after a reload that changes it.
    const menu = new CommandMenu(api, logger);
    void menu.sync(rules.current);
    const unwatchKinds = onRuleReload(rules, (problems) => {
      if (problems.length > 0) return;
      void ingress.rulesChanged();
      void menu.sync(rules.current);
    });
    cleanups.push(async () => unwatchKinds());
    if (companion) {
      // The page's banner for this bot: cleared at start (an earlier run may have left one), then after every reload.
      companion.ruleProblems([]);
      const unreport = onRuleReload(rules, (problems) => companion.ruleProblems(problems));
      cleanups.push(async () => unreport());
    }
    intake.onFail(() => ingress.stopAccepting());
    // A shared store: outages on /healthz and in the metrics, and work left in it (an outage, a dead replica) picked up.
    const unwatch = store.shared ? watchSharedStore({ store: store.shared, pipeline, health, metrics, logger }) : () => undefined;
    cleanups.push(async () => unwatch());
    const stopService = createStop({
      shutdownTimeoutMs: config.delivery.shutdownTimeoutMs,
      logger,
      pipeline,
      ingress,
      outbox,
      rules,
      api: core.rawApi,
      closeStore,
    });
    return {
      mode: config.mode,
      botUsername: core.bot.username,
      serverUrl: ingress.serverUrl,
      metrics,
      done: explainRefusal(ingress.ended ? Promise.race([ingress.ended, intake.failed]) : intake.failed, config, core.bot),
      reloadRules: () => rules.reload(),
      onRuleReload: (listener) => onRuleReload(rules, listener),
      stop: () => {
        unwatch();
        return stopService();
      },
    };
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    throw error;
  }
}

/** What the service runs on: the rules, the Bot API (wrapped and raw), the bot's identity and the store. */
interface ServiceCore {
  rules: RuleWatcher;
  api: BotApi;
  /** The wire under the service's transformers, closed last on stop. */
  rawApi: BotApi;
  bot: BotIdentity;
  store: OpenedStore;
  /** Set when the service is hearsay's sandbox: what hearsay tells its chat page (see sandbox-companion.ts). */
  companion: SandboxCompanion | undefined;
}

/** Loads the rules, identifies the bot and opens its store; each part opened is added to `cleanups`. */
async function openCore(
  config: ServiceConfig,
  options: StartServiceOptions,
  metrics: ServiceMetrics,
  health: HealthState,
  cleanups: Cleanups,
): Promise<ServiceCore> {
  const { logger } = options;
  const rules = await startRules({
    rulesPath: config.rulesPath,
    limits: config.ruleLimits,
    environment: {
      chats: new Set(Object.keys(config.chats)),
      backends: new Set(Object.keys(config.backends)),
      handoff: config.handoff !== null,
      configFile: config.configFile,
    },
    logger,
    metrics,
    health,
    ...(options.ruleDebounceMs !== undefined ? { debounceMs: options.ruleDebounceMs } : {}),
  });
  cleanups.push(() => rules.close());
  // Every call below goes through the same client: retry, rate limits, health and metrics around the wire.
  const {
    api,
    transport: rawApi,
    localLimiter,
    shareRateLimits,
  } = createServiceBotApi({ config, logger, metrics, health, ...(options.api ? { transport: options.api } : {}) });
  cleanups.push(() => rawApi.close());
  const bot = await identifyBot(api, config);
  logger.info({ bot: bot.username, mode: config.mode, rules: rules.current.rules.length }, 'bot identified');
  const store = await openStore(config, bot, logger);
  cleanups.push(() => store.close());
  // Replicas keep the service's limits together: N of them must not send N times the overall limit.
  if (store.shared && localLimiter && config.rateLimits) shareRateLimits(store.shared.rateLimiter(config.rateLimits, localLimiter, logger));
  const companion = bot.sandbox ? sandboxCompanion(api, logger) : undefined;
  return { rules, api, rawApi, bot, store, companion };
}

/**
 * The service's end, with a refused token explained when the service is hearsay's sandbox and it restarted in the
 * meantime: it forgot the bot, nothing was revoked.
 */
function explainRefusal(done: Promise<void>, config: ServiceConfig, bot: BotIdentity): Promise<void> {
  if (!bot.sandbox) return done;
  const { instance } = bot.sandbox;
  return done.catch(async (error: unknown) => {
    if (error instanceof HearsayError && error.code === 'HS_ERR_TOKEN_REVOKED' && (await sandboxRestarted(config.baseUrl, instance))) {
      throw new HearsayError('HS_ERR_SANDBOX_RESTARTED', [config.baseUrl, bot.username]);
    }
    throw error;
  });
}

/**
 * The pipeline and the flow timeouts, with what an earlier run left (stored updates, open flows) resumed,
 * and the state requests of `hearsay state`; `closeStore` ends them and closes the store.
 */
async function startWork(
  config: ServiceConfig,
  { rules, api, bot, store, companion }: ServiceCore,
  logger: Logger,
  metrics: ServiceMetrics,
  onTokenRejected: () => void,
  cleanups: Cleanups,
): Promise<{ pipeline: UpdatePipeline; outbox: OutboxRoom; closeStore: () => Promise<void> }> {
  // The timeouts' and the outbox's callbacks run only once updates flow, after all three exist.
  const sequencer = chatSequencer(config, store);
  const backends = await openBackends(config, bot, metrics, logger, cleanups);
  const pipeline: UpdatePipeline = createPipeline({
    config,
    sequencer,
    backends,
    api,
    rules,
    bot,
    store,
    logger,
    metrics,
    onTokenRejected,
    onStateCommitted: (commit) => timeouts.onCommitted(commit),
    onEffectsCommitted: () => outbox.wake(),
    companion,
  });
  const handoff = handoffPerformer(api, store, () => pipeline);
  const { outbox, broadcasts } = createOutbox({ config, store, api, backends, rules, sequencer, logger, metrics, onTokenRejected, performers: { handoff } });
  cleanups.push(async () => {
    outbox.close();
    broadcasts.close();
  });
  const timeouts = new FlowTimeouts({ store: store.ledger, rules, logger, fire: (chatId, userId) => pipeline.flowTimeout(chatId, userId) });
  cleanups.push(async () => timeouts.close());
  // Stored by an earlier run and never finished: queued first, ahead of anything new in its chat.
  await pipeline.replayPending();
  // Flows left open by an earlier run time out as if it had not stopped (those already due at once).
  await timeouts.schedule();
  // Effects an earlier run left (due, in doubt, or later) are performed as they come due.
  outbox.wake();
  const planner = await planSchedules(config, rules, store, logger, outbox);
  cleanups.push(async () => planner.close());
  const unsubscribe = onRuleReload(rules, (problems) => {
    if (problems.length > 0) return;
    void timeouts.schedule();
    void planner.start();
  });
  cleanups.push(async () => unsubscribe());
  // `hearsay state` reaches a running instance through files in its state directory: the file store only.
  const requests = store.shared ? { close: async () => undefined } : serveStateRequests(store, logger, () => outbox.wake());
  cleanups.push(() => requests.close());
  const closeStore = async () => {
    unsubscribe();
    timeouts.close();
    planner.close();
    outbox.close();
    broadcasts.close();
    await requests.close();
    await backends.close();
    await store.close();
  };
  return { pipeline, outbox, closeStore };
}

/** The service's end on a refused token: `failed` rejects with the operator's message; listeners stop the intake. */
function intakeFailure() {
  let reject!: (error: Error) => void;
  const failed = new Promise<never>((_, r) => (reject = r));
  failed.catch(() => undefined);
  const listeners: Array<() => void> = [];
  let happened = false;
  return {
    failed,
    /** Calls `listener` on failure, or at once when it already happened. */
    onFail(listener: () => void) {
      if (happened) listener();
      else listeners.push(listener);
    },
    fail(tokenSource: string | undefined) {
      happened = true;
      reject(tokenRevokedError(tokenSource));
      for (const listener of listeners.splice(0)) listener();
    },
  };
}
