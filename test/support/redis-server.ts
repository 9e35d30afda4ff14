// Debian's redis-server for tests: each call starts its own on a free loopback port with a temporary
// directory (AOF on, fsync at every write, no RDB snapshots), and can stop, kill or restart it on the same
// port and data (a restart keeps what the AOF holds, as in production), or pause it (kill -STOP) and resume it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import type { RedisStoreConfig } from '../../src/config/store.js';
import { freePort } from '../../src/demo/free-port.js';

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>/0`. */
  readonly url: string;
  /** Its working directory (the AOF lives here). */
  readonly dir: string;
  /** Stops it (SHUTDOWN-like: SIGTERM, waits for the exit). */
  stop(): Promise<void>;
  /** kill -9: whatever is not in the AOF yet is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (after stop or kill), with `args` added to its own for this run. */
  start(args?: string[]): Promise<void>;
  /** kill -STOP: the server keeps its connections open and answers nothing until {@link resume}. */
  pause(): void;
  /** kill -CONT after {@link pause}. */
  resume(): void;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

export interface RedisServerOptions {
  /** `always` (the default here: every acknowledged write is on disk) or `everysec`. */
  appendfsync?: 'always' | 'everysec';
  /** Extra `--name value` arguments. */
  args?: string[];
}

const READY = /Ready to accept connections/;
const START_TIMEOUT_MS = 10_000;

/** Starts a redis-server of its own; call `close()` in the test's cleanup. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'hearsay-redis-'));
  let port = 0;
  let child: ChildProcess | null = null;
  let extra: string[] = [];
  const args = () => [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    options.appendfsync ?? 'always',
    '--save',
    '',
    '--maxmemory-policy',
    'noeviction',
    '--daemonize',
    'no',
    '--logfile',
    '',
    ...(options.args ?? []),
    ...extra,
  ];
  const launch = async (): Promise<void> => {
    const proc = spawn('redis-server', args(), { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`redis-server did not start within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
      const fail = (error: Error) => {
        clearTimeout(timer);
        proc.kill('SIGKILL');
        reject(error);
      };
      proc.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (READY.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      proc.once('error', (error) => fail(new Error(`cannot start redis-server (is it installed?): ${error.message}`)));
      proc.once('exit', (code) => fail(new Error(`redis-server exited with ${code} before it was ready:\n${output}`)));
    });
    // Keep draining its output so a full pipe never blocks it.
    proc.stdout!.resume();
    proc.stderr!.resume();
    proc.removeAllListeners('exit');
  };
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(signal);
    await exited;
  };

  const signal = (name: NodeJS.Signals): void => {
    if (!child) throw new Error('redis-server is not running');
    (child as ChildProcess).kill(name);
  };

  // A port found free may be taken before redis binds it: try a few.
  for (let attempt = 0; ; attempt++) {
    port = await freePort('127.0.0.1');
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 4 || !/Address already in use/i.test(String(error))) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }

  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    dir,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    start: async (args = []) => {
      if (child) throw new Error('redis-server is already running');
      extra = args;
      await launch();
    },
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    close: async () => {
      await end('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calls per command the server ran so far, a script's commands too (INFO commandstats). */
export async function commandCalls(admin: Redis): Promise<Record<string, number>> {
  const info = await admin.info('commandstats');
  return Object.fromEntries([...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map((m) => [m[1]!, Number(m[2])]));
}

/** The store setting of a test's own redis-server, as `redis://127.0.0.1:<port>/0` reads. */
export function redisStoreConfig(server: { url: string; port: number }): RedisStoreConfig {
  const node = { host: '127.0.0.1', port: server.port };
  return { kind: 'redis', url: server.url, ...node, nodes: [node], cluster: false, db: 0, tls: false, username: null, password: null };
}

/** A redis-server for one test file, with a plain client on it for looking inside: started before its tests, stopped after. */
export interface SuiteRedis {
  readonly server: RedisServer;
  /** A client of the tests' own (to read keys, reset stats), not the store's. */
  readonly admin: Redis;
}

/** Starts a redis-server (and an admin client) before the file's tests and stops both after them. */
export function redisForSuite(): SuiteRedis {
  let server: RedisServer | undefined;
  let admin: Redis | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('the suite redis-server is started in beforeAll');
      return server;
    },
    get admin() {
      if (!admin) throw new Error('the suite redis-server is started in beforeAll');
      return admin;
    },
  };
}
