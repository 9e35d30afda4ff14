// GET /healthz and GET /metrics, mounted on the webhook server or on the polling mode's admin server.
import type { FastifyInstance } from 'fastify';
import type { HealthState } from './health.js';
import type { ServiceMetrics } from './metrics.js';

export function registerOpsRoutes(app: FastifyInstance, deps: { health: HealthState; metrics: ServiceMetrics }): void {
  app.get('/healthz', async (_request, reply) => {
    const { statusCode, body } = deps.health.report();
    return reply.code(statusCode).header('cache-control', 'no-store').send(body);
  });
  app.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await deps.metrics.render();
    return reply.header('content-type', contentType).send(body);
  });
}
