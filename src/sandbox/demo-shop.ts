// The demo shop: a small order backend the sandbox serves at /demo/shop, so the demo bot's order lookups
// (`call: { backend: shop, get: /orders/{{match.num}} }` in rules/) ask a real HTTP backend with no setup. A few
// orders are known; any other number is 404, as a shop answers an order it does not have. Read-only, in memory.
import type { FastifyInstance } from 'fastify';

/** Where the sandbox serves the shop: a backend's `url` is the sandbox's address and this path. */
export const DEMO_SHOP_PATH = '/demo/shop';

/** The orders the demo shop knows, by number. */
const ORDERS: Readonly<Record<string, { status: string; eta: string; items: { name: string }[] }>> = {
  '1234': { status: 'on its way', eta: 'tomorrow', items: [{ name: 'Espresso beans' }] },
  '4711': { status: 'shipped', eta: 'Friday', items: [{ name: 'Camera' }, { name: 'Tripod' }] },
  '98765': { status: 'packed', eta: 'Monday', items: [{ name: 'Teapot' }] },
};

/** GET /demo/shop/orders/:number: the order as JSON, or 404 with a JSON error. */
export async function demoShopRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { number: string } }>(`${DEMO_SHOP_PATH}/orders/:number`, async (request, reply) => {
    const order = Object.hasOwn(ORDERS, request.params.number) ? ORDERS[request.params.number] : undefined;
    if (!order) return reply.code(404).send({ error: 'no such order' });
    return { number: request.params.number, ...order };
  });
}
