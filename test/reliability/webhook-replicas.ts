// Replicas of one bot as real `hearsay run` processes in webhook mode behind a load balancer, sharing a Redis
// store, for the chaos and cluster tests: each with its own port and data directory.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBotRun, type RunProcess } from '../e2e/run-process.js';

export interface WebhookReplicaSettings {
  /** The sandbox's base URL. */
  baseUrl: string;
  token: string;
  rulesDir: string;
  /** HEARSAY_STORE: the Redis (or Redis Cluster) URL every replica shares. */
  store: string;
  /** The balancer's URL, which the webhook is set to. */
  frontUrl: string;
  secret: string;
  /** Every replica started is pushed here, for the test to kill. */
  running: RunProcess[];
  /** How long a replica may take to say "hearsay is running". */
  readyMs: number;
}

/** Starts a replica listening on 127.0.0.1:`port` (info logs, rate limits off) and resolves once it runs. */
export async function startWebhookReplica(settings: WebhookReplicaSettings, port: number): Promise<RunProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-replica-'));
  const run = startBotRun(
    { baseUrl: settings.baseUrl, token: settings.token, rulesDir: settings.rulesDir, dataDir, running: settings.running },
    {
      HEARSAY_MODE: 'webhook',
      HEARSAY_STORE: settings.store,
      HEARSAY_WEBHOOK_URL: settings.frontUrl,
      HEARSAY_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
      HEARSAY_WEBHOOK_SECRET: settings.secret,
      HEARSAY_WEBHOOK_PATH: '/hook',
      HEARSAY_LOG_LEVEL: 'info',
      // A sendmessage retried after a timeout may arrive twice (docs/configuration.md, api.timeout): on a
      // machine this busy the sandbox can be slow, and those duplicates are not what these tests are about.
      HEARSAY_API_TIMEOUT: '120',
    },
  );
  await run.waitForLine(/hearsay is running/, settings.readyMs);
  return run;
}
