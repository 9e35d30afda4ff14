// A free TCP port on a host, for a server whose URL must be known before it listens (the demo's
// webhook: its URL goes to setwebhook, so "port 0" has to become a real port first).
import { createServer } from 'node:net';

export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The address to connect to for a server bound to `host`: the wildcard addresses mean this machine. */
export function connectableHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '::1';
  return host;
}

export function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
