// A real Redis Cluster for tests: `primaries` redis-servers with `--cluster-enabled yes` (and `replicasEach`
// replicas of each) on free loopback ports, each in its own temporary directory (AOF, fsync at every write), joined
// with `redis-cli --cluster create`; a short node timeout so that a killed primary fails over within seconds.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import type { RedisStoreConfig } from '../../src/config/store.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const run = promisify(execFile);

export interface RedisCluster {
  /** Every server, primaries first as created (roles change with a failover). */
  readonly servers: RedisServer[];
  /** `redis-cluster://127.0.0.1:<p1>,127.0.0.1:<p2>,…`. */
  readonly url: string;
  /** The store setting that URL reads as. */
  readonly config: RedisStoreConfig;
  /** The server that is the primary of `key`'s slot now. */
  primaryOf(key: string): Promise<RedisServer>;
  /** Resolves once every slot is served again (`cluster_state:ok` on every running node) and `key`'s slot has a primary other than `was`. */
  waitForFailover(key: string, was: RedisServer, timeoutMs?: number): Promise<RedisServer>;
  /** Stops every server and removes their directories. */
  close(): Promise<void>;
}

export interface RedisClusterOptions {
  primaries?: number;
  replicasEach?: number;
  /** `cluster-node-timeout` in ms: how long a silent primary takes to be failed over (about twice this). */
  nodeTimeoutMs?: number;
}

/** Starts and joins a cluster; call `close()` in the test's cleanup. */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const primaries = options.primaries ?? 3;
  const replicasEach = options.replicasEach ?? 1;
  const clusterArgs = ['--cluster-enabled', 'yes', '--cluster-node-timeout', String(options.nodeTimeoutMs ?? 1000), '--cluster-config-file', 'nodes.conf'];
  const servers: RedisServer[] = [];
  try {
    for (let i = 0; i < primaries * (1 + replicasEach); i++) servers.push(await startRedisServer({ args: clusterArgs }));
    const addresses = servers.map((server) => `127.0.0.1:${server.port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', String(replicasEach), '--cluster-yes'], { timeout: 30_000 });
    await waitUntil(async () => (await Promise.all(servers.map((server) => clusterOk(server.port)))).every(Boolean), 30_000);
    // Every replica has its full copy and follows its primary (a write can be waited for until a replica has it).
    const online = (info: string | null) => (info ?? '').split('\n').filter((line) => /^slave\d+:.*state=online/.test(line)).length;
    const followed = async () => (await Promise.all(servers.map((server) => ask(server.port, (client) => client.info('replication'))))).map(online);
    await waitUntil(async () => (await followed()).reduce((sum, n) => sum + n, 0) === primaries * replicasEach, 30_000);
  } catch (error) {
    await Promise.all(servers.map((server) => server.close()));
    throw error;
  }
  const url = `redis-cluster://${servers.map((server) => `127.0.0.1:${server.port}`).join(',')}`;
  const nodes = servers.map((server) => ({ host: '127.0.0.1', port: server.port }));
  const config: RedisStoreConfig = { kind: 'redis', url, ...nodes[0]!, nodes, cluster: true, db: 0, tls: false, username: null, password: null };
  const primaryOf = async (key: string): Promise<RedisServer> => {
    for (const server of servers) {
      const role = await ask(server.port, async (client) => {
        const slot = await client.cluster('KEYSLOT', key);
        const ranges = (await client.cluster('SLOTS')) as unknown as Array<[number, number, [string, number]]>;
        return ranges.find(([from, to]) => slot >= from && slot <= to)?.[2][1];
      });
      const primary = servers.find((candidate) => candidate.port === role);
      if (primary) return primary;
    }
    throw new Error(`no server of the cluster answers for ${key}`);
  };
  return {
    servers,
    url,
    config,
    primaryOf,
    waitForFailover: async (key, was, timeoutMs = 30_000) => {
      let now: RedisServer | null = null;
      await waitUntil(async () => {
        const running = servers.filter((server) => server !== was);
        const ok = (await Promise.all(running.map((server) => clusterOk(server.port)))).every(Boolean);
        now = ok ? await primaryOf(key).catch(() => null) : null;
        return now !== null && now !== was;
      }, timeoutMs);
      return now!;
    },
    close: async () => {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}

/** Runs `question` on a short-lived connection to one node; null when that node does not answer. */
async function ask<T>(port: number, question: (client: Redis) => Promise<T>): Promise<T | null> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await question(client);
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}

const clusterOk = async (port: number): Promise<boolean> => ((await ask(port, (client) => client.cluster('INFO'))) ?? '').includes('cluster_state:ok');

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`the Redis Cluster did not settle within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
