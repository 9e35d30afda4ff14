// One bot's access to the Redis store, under which the ledger, the state documents, the polling lease and the
// shared rate limits work: keys under the bot's prefix, Lua scripts run by SHA (sent again to a restarted
// server), every failure as a StoreUnavailableError the connection learns of, and the wait for a write to reach
// the server's disk (WAITAOF where the server has it, Redis 7.2+; otherwise `appendfsync always` answers only after the fsync)
// and, where the bot's server has replicas, on one of them too (WAIT), so that a failover keeps it.
import { createHash } from 'node:crypto';
import { Cluster, Command, type Redis } from 'ioredis';
import type { Logger } from '../../log/logger.js';
import { StoreUnavailableError } from '../../pipeline/ports.js';
export { ReplicaFencedError } from '../../pipeline/replica-ports.js';
import { describeRedisError, type RedisConnection } from './redis-connection.js';
import { checkPersistence, connectedReplicas } from './server-persistence.js';
import { RequestPacer } from './request-batches.js';

const WAITAOF_TIMEOUT_MS = 5000;
/** How long a write waits for a replica of its server to have it before the replicas are counted again. */
const WAIT_REPLICA_TIMEOUT_MS = 2000;
/** How often a bot's server without a replica is asked whether one follows it again. */
const RECOUNT_REPLICAS_MS = 5000;

const serverName = (server: Redis): string => `${server.options.host}:${server.options.port}`;

/** A Lua script and its SHA1 (EVALSHA first, EVAL when the server does not have it yet: a restarted Redis). */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

/** A script call's arguments after the script: how many keys, the keys (the bot's prefix first), the other arguments. */
type ScriptArgs = [numKeys: number, ...keysAndArgs: Array<string | number>];

/** Prepares a script for {@link RedisAccess.runScript}. */
export const script = (source: string): Script => ({ source, sha: createHash('sha1').update(source).digest('hex') });

/** One bot's view of the store: what every Redis part of it (ledger, documents, lease, rate limits) runs its commands through. */
export class RedisAccess {
  private waitAof = false;
  private waitReplica = false;
  private logger: Logger | undefined;
  private replicasCountedAt = 0;
  /** The cluster slot of the bot's hash tag (asked once: CLUSTER KEYSLOT); none on one server. */
  private slot: number | undefined;
  /** Paces the batched steps of this bot's updates (accepts, begins, commits) over its connection. */
  readonly pacer = new RequestPacer();

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

  /**
   * The server that holds this bot's keys, and the connection its writes went over: the one server, or in a
   * cluster the primary of the slot of the bot's hash tag (as the client last learnt the cluster).
   */
  botServer(): Redis {
    const client = this.client;
    if (!(client instanceof Cluster)) return client;
    const primary = this.slot === undefined ? undefined : client.slots[this.slot]?.[0];
    const node = primary === undefined ? undefined : client.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === primary);
    if (!node) throw new Error("CLUSTERDOWN no primary of the cluster is known for this bot's keys now");
    return node;
  }

  /**
   * Asks the bot's server how it keeps writes (warning when it may lose them) and whether it has replicas, so
   * that {@link durable} knows what to wait for.
   */
  async checkPersistence(logger: Logger): Promise<void> {
    this.logger = logger;
    if (this.client instanceof Cluster && this.slot === undefined) {
      const slot = await this.command(() => (this.client as Cluster).cluster('KEYSLOT', this.prefix));
      this.slot = Number(slot);
    }
    const server = await this.command(async () => checkPersistence(this.botServer(), logger));
    this.waitAof = server.waitAof;
    this.waitReplica = server.replicas > 0;
  }

  /**
   * After a write: resolves once the server's AOF has it on disk (WAITAOF; at once under appendfsync always)
   * and, while the server has replicas, once one of them has it (WAIT), so a failover to it keeps the write.
   */
  async durable(): Promise<void> {
    if (this.waitAof) {
      const [local] = (await this.command(() => this.botServer().call('WAITAOF', '1', '0', String(WAITAOF_TIMEOUT_MS)))) as [number, number];
      if (local < 1) throw new StoreUnavailableError('the Redis store did not write the change to its disk in time');
    }
    if (this.waitReplica) await this.reachReplica();
    else this.recountReplicas();
  }

  /** WAIT for one replica; when none answers in time, counts the server's replicas again (it may have none now: a failover). */
  private async reachReplica(): Promise<void> {
    const acknowledged = await this.command(() => this.botServer().wait(1, WAIT_REPLICA_TIMEOUT_MS));
    if (acknowledged >= 1) return;
    const replicas = await this.command(() => connectedReplicas(this.botServer()));
    if (replicas > 0) throw new StoreUnavailableError('the Redis store did not copy the change to a replica in time');
    if (!this.waitReplica) return;
    this.waitReplica = false;
    this.replicasCountedAt = Date.now();
    this.logger?.warn(
      { store_server: serverName(this.botServer()) },
      "the bot's Redis server has no replica now: what it acknowledges is on its disk only, and a failover now would lose it (looked at again every few seconds)",
    );
  }

  /** While the bot's server has no replica: every few seconds, whether one follows it again (the old primary back as its replica). */
  private recountReplicas(): void {
    if (this.waitReplica || Date.now() - this.replicasCountedAt < RECOUNT_REPLICAS_MS) return;
    this.replicasCountedAt = Date.now();
    void this.command(async () => {
      const server = this.botServer();
      if ((await connectedReplicas(server)) === 0 || this.waitReplica) return;
      this.waitReplica = true;
      this.logger?.info({ store_server: serverName(server) }, "the bot's Redis server has a replica again: each write waits until the replica has it");
    }).catch(() => undefined);
  }

  /** Runs one of the store's scripts with the bot's key prefix as KEYS[1]; a failure becomes a StoreUnavailableError. */
  async runScript(target: Script, keys: string[], args: Array<string | number>): Promise<unknown> {
    const scriptArgs: ScriptArgs = [keys.length + 1, this.prefix, ...keys, ...args];
    return this.command(async () => {
      try {
        return await this.evalsha(target.sha, scriptArgs);
      } catch (error) {
        if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
        return this.client.eval(target.source, ...scriptArgs);
      }
    });
  }

  /** EVALSHA with the script's arguments (numkeys, keys, args), sent as it is (no wrapper of ioredis's command methods). */
  private evalsha(sha: string, scriptArgs: ScriptArgs): Promise<unknown> {
    const client = this.client;
    if (client instanceof Cluster) return client.evalsha(sha, ...scriptArgs);
    const command = new Command('evalsha', [sha, ...scriptArgs], { replyEncoding: 'utf8' });
    void client.sendCommand(command);
    return command.promise;
  }

  /**
   * Corks one server's socket until this pass of the event loop ends (its check phase): the commands that many
   * chats' updates send in one pass reach Redis in one write, which Redis reads and answers in one pass of its
   * loop. That is what ioredis's auto-pipelining does, without the pipeline object and promises it makes for every
   * pass: about 12% less CPU per update for a replica in the bench (BENCHMARKS.md, "tenth pass"). A cluster's
   * client routes each command to its node itself.
   */
  private corkForThisPass(): void {
    const client = this.client;
    if (client instanceof Cluster) return;
    const stream = client.stream;
    // Corked already: by an earlier command of this pass.
    if (client.status !== 'ready' || !stream?.writable || stream.writableCorked > 0) return;
    stream.cork();
    setImmediate(() => stream.uncork());
  }

  /** Runs a batched step's script (see {@link pacer}): the next batches wait until it is answered or has failed. */
  runPacedScript(target: Script, keys: string[], args: Array<string | number>): Promise<unknown> {
    return this.pacer.track(this.runScript(target, keys, args));
  }

  /** Runs one store operation: a failure becomes a StoreUnavailableError, and the connection learns of it. */
  async command<T>(operation: () => Promise<T>): Promise<T> {
    // A hung server would hold every command for the whole timeout: the connection's PING finds out when it answers.
    if (this.connection.hung) throw new StoreUnavailableError('the Redis store is not answering (ETIMEDOUT)');
    this.corkForThisPass();
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
