// hearsay on the Redis store as one contestant: starts its own redis-server (AOF, appendfsync always, as
// docs/scaling.md recommends) on a free port, then `hearsay run` with HEARSAY_STORE pointing at it. Both are
// children of this process, so the bench's CPU of the process tree counts the bot and its Redis together;
// at the end the Redis server's own share is printed to stderr (`redis-server cpu ticks: N`).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const [hearsayMain, ...hearsayArgs] = process.argv.slice(2);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function cpuTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return NaN;
  }
}

const port = await freePort();
const dir = mkdtempSync(path.join(os.tmpdir(), 'hearsay-bench-redis-'));
const redis = spawn(
  'redis-server',
  ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise((resolve, reject) => {
  let output = '';
  redis.stdout.on('data', (chunk) => {
    output += chunk;
    if (output.includes('Ready to accept connections')) resolve();
  });
  redis.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
});
redis.stdout.resume();

const bot = spawn(process.execPath, [hearsayMain, ...hearsayArgs], {
  stdio: 'inherit',
  env: { ...process.env, HEARSAY_STORE: `redis://127.0.0.1:${port}/0` },
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => bot.kill(signal));
bot.once('exit', (code) => {
  process.stderr.write(`redis-server cpu ticks: ${cpuTicks(redis.pid)}\n`);
  redis.kill('SIGKILL');
  process.exit(code ?? 1);
});
