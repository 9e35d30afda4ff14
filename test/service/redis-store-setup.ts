// The setting of the Redis store service tests: a sandbox (quick webhook redelivery) and a real redis-server
// for a describe block, with every `hearsay run` a test started killed after it.
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { RunProcess } from '../e2e/run-process.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

/** What a test of the block reads: started before its first test, stopped after its last. */
export interface RedisStoreSetup {
  readonly sandbox: StartedSandbox;
  readonly redis: RedisServer;
  /** The processes to kill (SIGKILL) once the current test is over. */
  readonly running: RunProcess[];
}

/** Registers the describe block's hooks: a sandbox and a redis-server for all its tests, the runs in `running` killed after each. */
export function useRedisStoreSetup(): RedisStoreSetup {
  const running: RunProcess[] = [];
  const setup = { running } as { sandbox: StartedSandbox; redis: RedisServer; running: RunProcess[] };
  beforeAll(async () => {
    setup.sandbox = await startSandbox({ webhook: { retryBaseMs: 50, retryMaxMs: 300 } });
    setup.redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop('SIGKILL')));
  });
  afterAll(async () => {
    await setup.sandbox?.close();
    await setup.redis?.close();
  });
  return setup;
}
