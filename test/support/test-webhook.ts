// A webhook ingress on 127.0.0.1:0 in front of a real test pipeline (see test-pipeline.ts), for the ingress tests
// that talk to it over HTTP: started here, closed by `closeTestWebhooks` after each test.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebhookConnectionLimits } from '../../src/config/types.js';
import { WebhookIngress } from '../../src/ingress/webhook.js';
import { createLogger } from '../../src/log/logger.js';
import { HealthState } from '../../src/ops/health.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { FakeBotApi } from '../delivery/fake-bot-api.js';
import { testPipeline } from './test-pipeline.js';

export interface TestWebhook {
  webhook: WebhookIngress;
  port: number;
  /** Every update the pipeline finished, whether it had a reply or not, in order. */
  handled: number[];
  metrics: ServiceMetrics;
}

const started: WebhookIngress[] = [];

/** Starts a webhook at `/hook` with `secret`, the body limit and the connection limits given. */
export async function startTestWebhook(options: { secret: string; maxBodyBytes: number; connections: WebhookConnectionLimits }): Promise<TestWebhook> {
  const { pipeline, committed: handled } = testPipeline({ dir: await mkdtemp(join(tmpdir(), 'hearsay-webhook-')) });
  const metrics = new ServiceMetrics({ processMetrics: false });
  const webhook = new WebhookIngress({
    api: new FakeBotApi(),
    pipeline,
    logger: createLogger({ level: 'silent' }),
    metrics,
    health: new HealthState('webhook'),
    publicUrl: 'https://bot.example.com/hook',
    listen: { host: '127.0.0.1', port: 0 },
    path: '/hook',
    secret: options.secret,
    tls: null,
    maxBodyBytes: options.maxBodyBytes,
    maxConnections: 40,
    connections: options.connections,
  });
  await webhook.start();
  started.push(webhook);
  return { webhook, port: Number(new URL(webhook.address!).port), handled, metrics };
}

/** Closes every webhook started since the last call. */
export async function closeTestWebhooks(): Promise<void> {
  await Promise.all(started.splice(0).map((webhook) => webhook.close()));
}
