// The local URL a listening Fastify server can be reached at (the real port when 0 was asked for).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function serverUrl(app: FastifyInstance, scheme: 'http' | 'https'): string {
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}`;
}
