// The optional admin server of polling mode: /healthz and /metrics on their own port (off by default).
import Fastify, { type FastifyInstance } from 'fastify';
import type { ListenAddress } from '../config/types.js';
import type { HealthState } from './health.js';
import type { ServiceMetrics } from './metrics.js';
import { registerOpsRoutes } from './ops-routes.js';
import { serverUrl } from './server-url.js';

export class AdminServer {
  private readonly app: FastifyInstance;
  private url: string | null = null;

  constructor(deps: { health: HealthState; metrics: ServiceMetrics }) {
    this.app = Fastify({ logger: false, forceCloseConnections: true });
    registerOpsRoutes(this.app, deps);
  }

  /** Starts listening; returns the local URL (with the real port when 0 was asked for). */
  async listen(address: ListenAddress): Promise<string> {
    await this.app.listen({ host: address.host, port: address.port });
    this.url = serverUrl(this.app, 'http');
    return this.url;
  }

  get address(): string | null {
    return this.url;
  }

  async close(): Promise<void> {
    await this.app.close();
  }
}
