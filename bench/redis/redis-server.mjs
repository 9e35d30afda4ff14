// A redis-server of the bench's own, for the Redis contestant and bench/redis: on a free loopback port, its files
// in a temporary folder that goes with it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../free-port.mjs';

/**
 * Starts redis-server with `settings` (e.g. ['--appendonly', 'yes']) and resolves once it accepts connections.
 * `stop()` kills it and removes its folder.
 * @returns {Promise<{ port: number, pid: number, stop(): Promise<void> }>}
 */
export async function startRedisServer(settings) {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearsay-bench-redis-'));
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--daemonize', 'no', ...settings], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => redis.once('exit', resolve));
  await new Promise((resolve, reject) => {
    let output = '';
    redis.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
    exited.then((code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  redis.stdout.resume();
  return {
    port,
    pid: redis.pid,
    async stop() {
      redis.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
