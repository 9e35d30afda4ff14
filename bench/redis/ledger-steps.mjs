#!/usr/bin/env node
// Redis's own cost per update for the three steps of the Redis ledger (accept, loadAndBegin, commit), without
// HTTP or replicas: the built ledger (dist/) against a redis-server of its own, N updates over 1,000 chats, C at
// a time, each step for every update before the next step. Per step: Redis's CPU per update (from /proc, so the
// AOF's writes and fsyncs count), the time INFO commandstats says its scripts took, and commands per update.
// Shows how much of Redis's cost per update is its loop and the AOF, which fall the more updates share a pass
// (C), against the scripts' own work. Options: --updates N (10000), --concurrency C (50), --appendfsync
// always|everysec|no (always), --no-aof, --state (each commit changes a user variable), --rounds R (1).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../contestants/registry.mjs';
import { CLOCK_TICKS, processCpuTicks } from '../report/process-cpu.mjs';
import { startRedisServer } from './redis-server.mjs';

const { values } = parseArgs({
  options: {
    updates: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '50' },
    appendfsync: { type: 'string', default: 'always' },
    'no-aof': { type: 'boolean', default: false },
    state: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
  },
});
const updates = Number(values.updates);
const concurrency = Number(values.concurrency);
const dist = (file) => import(pathToFileURL(path.join(REPO_ROOT, 'dist', file)).href);
const { connectRedis } = await dist('store/redis/redis-connection.js');
const { RedisLedger } = await dist('store/redis/redis-ledger.js');
const { createLogger } = await dist('log/logger.js');

const aof = values['no-aof'] ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', values.appendfsync];
const redis = await startRedisServer(aof);
const { port } = redis;

const logger = createLogger({ level: 'silent' });
const node = { host: '127.0.0.1', port };
const config = { kind: 'redis', url: `redis://127.0.0.1:${port}`, ...node, nodes: [node], cluster: false, db: 0, tls: false, username: null, password: null };
const connection = await connectRedis({ config, logger });
const ledger = await RedisLedger.open({ connection, prefix: 'hearsay:{bot1}:', logger, inbox: true });

const TEXT = 'hello there, where is my order 4711? it has been a week';
const chatOf = (id) => 1000 + (id % 1000);
const updateOf = (id) => ({
  update_id: id,
  message: {
    message_id: id,
    date: 1_700_000_000,
    chat: { id: chatOf(id), type: 'private', first_name: 'Ann', username: 'ann' },
    from: { id: chatOf(id), is_bot: false, first_name: 'Ann', username: 'ann', language_code: 'en' },
    text: TEXT,
  },
});
const scopeOf = (id) => ({ chatId: chatOf(id), userId: chatOf(id) });

/** Scripts (EVALSHA) and all commands Redis ran so far, and the µs its scripts took (INFO commandstats). */
async function commandStats() {
  const info = await connection.client.info('commandstats');
  const scripts = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(info);
  let commands = 0;
  for (const match of info.matchAll(/calls=(\d+)/g)) commands += Number(match[1]);
  return { scripts: Number(scripts?.[1] ?? 0), scriptUsec: Number(scripts?.[2] ?? 0), commands };
}

async function step(name, first, run) {
  const before = await commandStats();
  const ticks = processCpuTicks(redis.pid);
  let next = first;
  const end = first + updates;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < end) await run(next++);
    }),
  );
  const after = await commandStats();
  const cpuUs = ((processCpuTicks(redis.pid) - ticks) * (1e6 / CLOCK_TICKS)) / updates;
  // The INFO call itself is one command of the difference.
  const row = {
    step: name,
    redisCpuUs: cpuUs,
    inScriptsUs: (after.scriptUsec - before.scriptUsec) / updates,
    commands: (after.commands - before.commands - 1) / updates,
  };
  console.log(
    `  ${name.padEnd(13)} Redis CPU ${row.redisCpuUs.toFixed(0).padStart(4)} µs/update, scripts ${row.inScriptsUs.toFixed(1).padStart(5)} µs, ${row.commands.toFixed(1)} commands`,
  );
  return row;
}

console.log(
  `${updates} updates over 1,000 chats, ${concurrency} at a time, ${values['no-aof'] ? 'no AOF' : `appendfsync ${values.appendfsync}`}${values.state ? ', a state change per commit' : ''}`,
);
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    const first = 1 + round * updates;
    const rows = [
      await step('accept', first, (id) => ledger.accept(updateOf(id))),
      await step('loadAndBegin', first, (id) => ledger.loadAndBegin(scopeOf(id), updateOf(id))),
      await step('commit', first, (id) =>
        ledger.commit(updateOf(id), values.state ? { scope: scopeOf(id), changes: [{ type: 'set_state', scope: 'user', key: 'n', value: id }] } : null),
      ),
    ];
    const total = rows.reduce((sum, row) => sum + row.redisCpuUs, 0);
    console.log(`  all three     Redis CPU ${total.toFixed(0).padStart(4)} µs/update (clock ticks of 10 ms: ±${(1e4 / updates).toFixed(1)} µs per step)`);
  }
} finally {
  await ledger.close();
  await redis.stop();
}
