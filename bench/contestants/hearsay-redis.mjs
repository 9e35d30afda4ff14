// hearsay on the Redis store as one contestant: starts its own redis-server (AOF, appendfsync always, as
// docs/scaling.md recommends) on a free port, then BENCH_REPLICAS (default 1) `hearsay run` replicas with
// HEARSAY_STORE pointing at it. In webhook mode the replicas listen on ports of their own behind a round-robin
// balancer in this process (each webhook POST to the next replica, as a reverse proxy does), whose address is
// the webhook URL they all set; in polling mode they share the polling lease as documented. All are children
// of this process, so the bench's CPU of the process tree counts the replicas and Redis together; the pids and
// the Redis port go to BENCH_PARTS_FILE, so that the bench can also measure each part on its own.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { freePort } from '../free-port.mjs';
import { startRedisServer } from '../redis/redis-server.mjs';
import { processCpuTicks } from '../report/process-cpu.mjs';

const [hearsayMain, ...hearsayArgs] = process.argv.slice(2);
const replicas = Number(process.env.BENCH_REPLICAS ?? '1');

/** A round-robin HTTP balancer on 127.0.0.1 over the replicas' ports; a replica that cannot be reached gets 502. */
function startBalancer(ports) {
  let next = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server = createServer((incoming, outgoing) => {
    const port = ports[next++ % ports.length];
    const forward = request({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forward.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
    incoming.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// BENCH_REDIS_APPENDFSYNC: `everysec` to see what the fsync before each answer costs (the recommended and
// default setting is `always`; hearsay logs a warning at start with anything else).
const appendfsync = process.env.BENCH_REDIS_APPENDFSYNC ?? 'always';
const redis = await startRedisServer(['--appendonly', 'yes', '--appendfsync', appendfsync]);
const redisPort = redis.port;

const webhook = process.env.HEARSAY_MODE === 'webhook';
const ports = await Promise.all(Array.from({ length: replicas }, () => freePort()));
let balancer = null;
if (webhook) balancer = await startBalancer(ports);
// BENCH_REPLICA_NODE_ARGS: node options for each replica (e.g. --cpu-prof --cpu-prof-dir=DIR to profile them).
const replicaNodeArgs = (process.env.BENCH_REPLICA_NODE_ARGS ?? '').split(' ').filter(Boolean);
const bots = ports.map((port) =>
  spawn(process.execPath, [...replicaNodeArgs, hearsayMain, ...hearsayArgs], {
    stdio: 'inherit',
    env: {
      ...process.env,
      HEARSAY_STORE: `redis://127.0.0.1:${redisPort}/0`,
      // Each replica its own data dir (the file store's lock is not used, but the path must be its own).
      HEARSAY_DATA_DIR: `${process.env.HEARSAY_DATA_DIR}-${port}`,
      ...(webhook ? { HEARSAY_WEBHOOK_URL: `http://127.0.0.1:${balancer.address().port}`, HEARSAY_WEBHOOK_LISTEN: `127.0.0.1:${port}` } : {}),
    },
  }),
);
if (process.env.BENCH_PARTS_FILE) {
  writeFileSync(process.env.BENCH_PARTS_FILE, JSON.stringify({ redisPid: redis.pid, redisPort, replicaPids: bots.map((bot) => bot.pid) }));
}
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => bots.forEach((bot) => bot.kill(signal)));
let left = bots.length;
let worst = 0;
for (const bot of bots) {
  bot.once('exit', (code) => {
    worst = Math.max(worst, code ?? 1);
    if (--left > 0) return;
    process.stderr.write(`redis-server cpu ticks: ${processCpuTicks(redis.pid)}\n`);
    balancer?.close();
    // Its folder (the AOF) goes with it: a run leaves nothing behind in the temporary directory.
    void redis.stop().then(() => process.exit(worst));
  });
}
