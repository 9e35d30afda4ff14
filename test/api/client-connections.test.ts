// The client's pool size: requests beyond `connections` wait for a connection instead of opening more.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { createLogger } from '../../src/log/logger.js';
import { HealthState } from '../../src/ops/health.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { createServiceBotApi } from '../../src/service/bot-api.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A service that answers every request 30 ms late, counting the connections it was opened. */
async function slowService(): Promise<{ baseUrl: string; connections: () => number }> {
  let connections = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"result":true}'), 30));
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

describe('BotApiClient connections', () => {
  it('opens at most `connections` to the service; the other requests wait for one and are all answered', async () => {
    const service = await slowService();
    const client = new BotApiClient({ baseUrl: service.baseUrl, token: '123:abc', connections: 3 });
    try {
      const answers = await Promise.all(Array.from({ length: 9 }, () => client.call('deletewebhook', {})));
      expect(answers).toEqual(Array(9).fill(true));
      expect(service.connections()).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('opens one per request in flight up to the limit', async () => {
    const service = await slowService();
    const client = new BotApiClient({ baseUrl: service.baseUrl, token: '123:abc', connections: 33 });
    try {
      await Promise.all(Array.from({ length: 20 }, () => client.call('deletewebhook', {})));
      expect(service.connections()).toBe(20);
    } finally {
      await client.close();
    }
  });

  it("the service's client keeps one connection per chat handled at once, and one for the long poll", async () => {
    const service = await slowService();
    const config = { baseUrl: service.baseUrl, token: '123:abc', api: { timeoutMs: 5000 }, rateLimits: null, delivery: { maxAttempts: 1, concurrency: 2 } };
    const { api, transport } = createServiceBotApi({
      config,
      logger: createLogger({ level: 'silent' }),
      metrics: new ServiceMetrics({ processMetrics: false }),
      health: new HealthState('polling'),
    });
    try {
      await Promise.all(Array.from({ length: 9 }, () => api.deleteWebhook({})));
      expect(service.connections()).toBe(3);
    } finally {
      await transport.close();
    }
  });
});
