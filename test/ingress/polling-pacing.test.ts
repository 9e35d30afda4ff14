// Polling never spins, whatever the service answers: a 429 with `retry_after: 0` and a server that ignores
// `timeout` (answering empty polls at once) are both met with at least the minimum wait between calls.
// Real HTTP: a misbehaving Bot API on loopback, the real client, the real poller.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { MIN_RETRY_WAIT_MS } from '../../src/api/backoff.js';
import { PollingIngress } from '../../src/ingress/polling.js';
import { createLogger } from '../../src/log/logger.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { testPipeline } from '../support/test-pipeline.js';

const logger = createLogger({ level: 'silent' });
const TOKEN = '4242:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

let server: Server | undefined;
let ingress: PollingIngress | undefined;
let client: BotApiClient | undefined;
afterEach(async () => {
  await ingress?.close(100);
  await client?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = ingress = client = undefined;
});

/** A Bot API that answers every getupdates at once with `body`; returns when each call arrived. */
async function pollAgainst(body: object): Promise<number[]> {
  const arrivals: number[] = [];
  server = createServer((request, response) => {
    arrivals.push(performance.now());
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  client = new BotApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: TOKEN, logger });
  ingress = new PollingIngress({
    api: client,
    pipeline: testPipeline({ inbox: false, concurrency: 1 }).pipeline,
    logger,
    metrics: new ServiceMetrics({ processMetrics: false }),
    timeoutSeconds: 30,
    limit: 100,
    deleteWebhook: false,
  });
  await ingress.start();
  return arrivals;
}

async function gapsAfter(arrivals: number[], calls: number): Promise<number[]> {
  await expect.poll(() => arrivals.length, { timeout: 15_000, interval: 50 }).toBeGreaterThanOrEqual(calls);
  return arrivals.slice(1, calls).map((at, i) => at - arrivals[i]!);
}

describe('polling pace', () => {
  it('waits at least the minimum after a 429 with retry_after 0', async () => {
    const arrivals = await pollAgainst({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 0', parameters: { retry_after: 0 } });
    for (const gap of await gapsAfter(arrivals, 4)) expect(gap).toBeGreaterThanOrEqual(MIN_RETRY_WAIT_MS - 50);
  }, 20_000);

  it('waits at least the minimum between empty answers from a server that ignores timeout', async () => {
    const arrivals = await pollAgainst({ ok: true, result: [] });
    for (const gap of await gapsAfter(arrivals, 4)) expect(gap).toBeGreaterThanOrEqual(MIN_RETRY_WAIT_MS - 50);
  }, 20_000);
});
