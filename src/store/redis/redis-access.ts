// One bot's access to the Redis store, under which the ledger, the state documents, the polling lease and the
// shared rate limits work: keys under the bot's prefix, Lua scripts run by SHA (sent again to a restarted
// server), every failure as a StoreUnavailableError the connection learns of, and the wait for a write to reach
// the server's disk (WAITAOF where the server has it, Redis 7.2+; otherwise `appendfsync always` answers only after the fsync).
import { createHash } from 'node:crypto';
import type { Logger } from '../../log/logger.js';
import { StoreUnavailableError } from '../../pipeline/ports.js';
export { ReplicaFencedError } from '../../pipeline/replica-ports.js';
import { describeRedisError, type RedisConnection } from './redis-connection.js';
import { checkPersistence } from './server-persistence.js';

const WAITAOF_TIMEOUT_MS = 5000;

/** A Lua script and its SHA1 (EVALSHA first, EVAL when the server does not have it yet: a restarted Redis). */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

/** Prepares a script for {@link RedisAccess.runScript}. */
export const script = (source: string): Script => ({ source, sha: createHash('sha1').update(source).digest('hex') });

/** One bot's view of the store: what every Redis part of it (ledger, documents, lease, rate limits) runs its commands through. */
export class RedisAccess {
  private waitAof = false;

  constructor(
    private readonly connection: RedisConnection,
    /** Every key of this bot starts with it. */
    readonly prefix: string,
  ) {}

  get client() {
    return this.connection.client;
  }

  /** The full key of a name under the bot's prefix. */
  key(name: string): string {
    return `${this.prefix}${name}`;
  }

  /** Asks the server how it keeps writes (warning when it may lose them), so that {@link durable} knows whether to wait. */
  async checkPersistence(logger: Logger): Promise<void> {
    this.waitAof = await this.command(() => checkPersistence(this.client, logger));
  }

  /** After a write: resolves once the server's AOF has it on disk (WAITAOF), or at once under appendfsync always. */
  async durable(): Promise<void> {
    if (!this.waitAof) return;
    const [local] = (await this.command(() => this.client.call('WAITAOF', '1', '0', String(WAITAOF_TIMEOUT_MS)))) as [number, number];
    if (local < 1) throw new StoreUnavailableError('the Redis store did not write the change to its disk in time');
  }

  /** Runs one of the store's scripts with the bot's key prefix as KEYS[1]; a failure becomes a StoreUnavailableError. */
  async runScript(target: Script, keys: string[], args: Array<string | number>): Promise<unknown> {
    const allKeys = [this.prefix, ...keys];
    return this.command(async () => {
      try {
        return await this.client.evalsha(target.sha, allKeys.length, ...allKeys, ...args);
      } catch (error) {
        if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
        return this.client.eval(target.source, allKeys.length, ...allKeys, ...args);
      }
    });
  }

  /** Runs one store operation: a failure becomes a StoreUnavailableError, and the connection learns of it. */
  async command<T>(operation: () => Promise<T>): Promise<T> {
    // A hung server would hold every command for the whole timeout: the connection's PING finds out when it answers.
    if (this.connection.hung) throw new StoreUnavailableError('the Redis store is not answering (ETIMEDOUT)');
    try {
      const result = await operation();
      this.connection.noteSuccess();
      return result;
    } catch (error) {
      this.connection.noteFailure(error);
      throw new StoreUnavailableError(`the Redis store failed: ${describeRedisError(error)}`, { cause: error });
    }
  }

  /** Closes the connection. */
  close(): Promise<void> {
    return this.connection.close();
  }
}
