// The ingress part of the service: in webhook mode the webhook server (which also serves /healthz and
// /metrics), in polling mode the poller and, if asked for, the admin server. Either way transport only:
// updates go to the pipeline.
import type { BotApi } from '../api/types.js';
import { updateKindsFor } from '../engine/events.js';
import type { RuleSet } from '../engine/rule-set.js';
import { formatListenAddress } from '../config/listen-address.js';
import type { ServiceConfig } from '../config/types.js';
import { PollingIngress } from '../ingress/polling.js';
import type { Logger } from '../log/logger.js';
import type { HealthState } from '../ops/health.js';
import { listenFailureMessage, settingListenHints } from '../ops/listen-failure.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import type { PollLeadership } from '../pipeline/replica-ports.js';
import type { UpdatePipeline } from '../pipeline/update-pipeline.js';
import { HearsayError, isHearsayError } from '../errors/hearsay-error.js';
import type { PollingReplicas } from '../ingress/polling-replicas.js';
import { pollingSettings } from '../ingress/polling-settings.js';

export interface IngressParts {
  config: ServiceConfig;
  api: BotApi;
  pipeline: UpdatePipeline;
  logger: Logger;
  metrics: ServiceMetrics;
  health: HealthState;
  /** A shared store's polling lease: polling runs as one of several replicas (the lease holder polls). */
  leadership?: PollLeadership | null;
  /** The live rules: they decide which update kinds are asked for. */
  rules: { readonly current: RuleSet };
}

/** A started ingress, as the service drives it. */
export interface StartedIngress {
  /** Local URL of the webhook server or the admin server, if any. */
  readonly serverUrl: string | null;
  /** Settles when polling ends by itself (rejects with a HearsayError on a fatal failure); never for a webhook. */
  readonly ended: Promise<void> | null;
  /** No more updates are taken (webhook: 503; polling: the long poll ends). */
  stopAccepting(): void;
  /** After the drain: confirms the offset (polling, within `confirmMs`) and closes the servers. */
  close(confirmMs: number): Promise<void>;
  /** After a reload: asks for the update kinds the new rules need (webhook: setwebhook again when they changed; polling asks on every call). */
  rulesChanged(): Promise<void>;
}

export async function startIngress(parts: IngressParts): Promise<StartedIngress> {
  return parts.config.mode === 'webhook' ? startWebhook(parts) : startPolling(parts);
}

async function startWebhook({ config, api, pipeline, logger, metrics, health, rules }: IngressParts): Promise<StartedIngress> {
  // Fastify is loaded only when a server is needed (webhook mode, or the admin server): less memory.
  const { WebhookIngress } = await import('../ingress/webhook.js');
  const { webhook } = config;
  const server = new WebhookIngress({
    api,
    pipeline,
    logger,
    metrics,
    health,
    publicUrl: webhook.publicUrl!,
    listen: webhook.listen,
    path: webhook.path,
    secret: webhook.secret,
    tls: webhook.tls,
    maxBodyBytes: webhook.maxBodyBytes,
    maxConnections: webhook.maxConnections,
    connections: webhook.connections,
    allowedUpdates: updateKindsFor(rules.current),
  });
  let kinds = updateKindsFor(rules.current).join();
  try {
    await server.start();
  } catch (error) {
    if (isHearsayError(error)) throw error;
    throw new HearsayError('HS_ERR_LISTEN_FAILED', [(error as Error).message], { cause: error });
  }
  const rulesChanged = async () => {
    const wanted = updateKindsFor(rules.current);
    if (wanted.join() === kinds) return;
    kinds = wanted.join();
    await server.changeAllowedUpdates(wanted);
  };
  return { serverUrl: server.address, ended: null, stopAccepting: () => server.stopAccepting(), close: () => server.close(), rulesChanged };
}

async function startPolling({ config, api, pipeline, logger, metrics, health, leadership, rules }: IngressParts): Promise<StartedIngress> {
  const allowedUpdates = () => updateKindsFor(rules.current);
  let admin: { close(): Promise<void> } | null = null;
  let serverUrl: string | null = null;
  if (config.admin.listen) {
    const { AdminServer } = await import('../ops/admin-server.js');
    const server = new AdminServer({ health, metrics });
    try {
      serverUrl = await server.listen(config.admin.listen);
    } catch (error) {
      const hints = settingListenHints('admin.listen', 'HEARSAY_ADMIN_LISTEN', '--admin-listen');
      throw new HearsayError('HS_ERR_ADMIN_LISTEN_FAILED', [listenFailureMessage(formatListenAddress(config.admin.listen), error, hints)], { cause: error });
    }
    admin = server;
    logger.info({ listen: serverUrl }, 'admin server listening (/healthz, /metrics)');
  }
  // Replicas' polling (and the Redis client under it) is loaded only on a shared store: a faster start without it.
  const polling: PollingReplicas | PollingIngress = leadership
    ? new (await import('../ingress/polling-replicas.js')).PollingReplicas({ config, api, pipeline, leadership, logger, metrics, health, allowedUpdates })
    : new PollingIngress({ ...pollingSettings({ config, api, logger, metrics }, allowedUpdates), pipeline });
  await polling.start();
  // One process alone polls while it runs; replicas say so as they take and lose the lease.
  if (polling instanceof PollingIngress) metrics.pollingLeader.set(1);
  return {
    serverUrl,
    ended: polling instanceof PollingIngress ? polling.done : polling.ended,
    stopAccepting: () => polling.stopAccepting(),
    rulesChanged: async () => undefined,
    close: async (confirmMs) => {
      try {
        await polling.close(confirmMs);
      } finally {
        await admin?.close();
      }
    },
  };
}
