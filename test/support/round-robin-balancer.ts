// A round-robin HTTP load balancer for tests of webhook replicas behind one URL: method, path, headers (the
// secret token among them) and body go to the next backend unchanged, and its answer comes back unchanged; a
// backend that cannot be reached gets 502 (the service sends the update again).
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinBalancer {
  /** What the service is told to POST to. */
  readonly url: string;
  /** Backend base URLs (`http://127.0.0.1:PORT`), taken in turn; more may be added while it runs. */
  readonly backends: string[];
  /** How many requests each backend answered 200, by its URL. */
  readonly accepted: Map<string, number>;
  /** Closes the balancer and every connection to it. */
  close(): Promise<void>;
}

/** Starts a balancer on 127.0.0.1, port 0, over `backends` (base URLs). */
export async function startRoundRobinBalancer(backends: string[] = []): Promise<RoundRobinBalancer> {
  const accepted = new Map<string, number>();
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const backend = backends[next++ % backends.length];
    if (!backend) return void outgoing.writeHead(502).end();
    const { port } = new URL(backend);
    const forward = request({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      if (answer.statusCode === 200) accepted.set(backend, (accepted.get(backend) ?? 0) + 1);
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forward.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, backends, accepted, close };
}
