// A free TCP port on 127.0.0.1, for the servers the bench starts (webhook listeners, redis-server).
import net from 'node:net';

/** Resolves to a port nothing listens on now (the OS's pick for port 0, released again). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
