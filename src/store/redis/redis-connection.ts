// One connection to the Redis store, and what the service must know about it: whether it can be used right
// now. Commands fail at once while it is down (no offline queue: a webhook must hear 503 now, not after a
// reconnect), the outage is logged once with its kind and once when it ends, and listeners (health, metrics)
// are told; reconnecting goes on by itself, with a capped backoff. A server that keeps the connection open but
// stops answering (kill -STOP, a stalled disk) is an outage too: a PING now and then tells when it is back.
// A Redis Cluster (`redis-cluster://`) is one connection too: ioredis's cluster client, which routes each
// command by its first key (a bot's hash tag) and follows the cluster through failovers.
import { Cluster, Redis } from 'ioredis';
import type { RedisStoreConfig } from '../../config/store.js';
import type { Logger } from '../../log/logger.js';

/** Why the store cannot be used: a connection error code (ECONNREFUSED, ETIMEDOUT…), `LOADING`, `NOAUTH`, or `closed`. */
export type StoreOutageKind = string;

/** Told whenever the store becomes unusable (with the kind) or usable again (null). */
export type AvailabilityListener = (outage: StoreOutageKind | null) => void;

export interface RedisConnectionOptions {
  config: RedisStoreConfig;
  logger: Logger;
  /** How long to wait for a connection or a command before counting the store as down. */
  timeoutMs?: number;
}

const RECONNECT_CAP_MS = 2000;
/** How long a hung server (its socket open, no answer) rests between two PINGs asking whether it answers again. */
const HUNG_PROBE_MS = 500;
/** Server errors that say it cannot serve now, whatever the state of the socket. */
const CANNOT_SERVE = /^(LOADING|READONLY|MISCONF|OOM|NOAUTH|WRONGPASS|MASTERDOWN|TRYAGAIN|CLUSTERDOWN)$/;
/** The kind of a command that got no answer in time (ioredis's commandTimeout) or of a connect that timed out. */
const NO_ANSWER = 'ETIMEDOUT';

/** Opens the connection and waits until the server answers; rejects with what went wrong (never the password). */
export async function connectRedis(options: RedisConnectionOptions): Promise<RedisConnection> {
  const connection = new RedisConnection(options);
  try {
    await connection.client.connect();
    await connection.client.ping();
  } catch (error) {
    connection.client.disconnect();
    // ioredis rejects with a bare "Connection is closed."; the socket's own error (ECONNREFUSED, ENOTFOUND…) says why.
    const cause = connection.lastError && /Connection is closed/i.test(String((error as Error)?.message)) ? connection.lastError : error;
    const { host, port } = options.config;
    throw new Error(
      `cannot reach the Redis store at ${host.includes(':') ? `[${host}]` : host}:${port} (${options.config.url}): ${describeRedisError(cause)}`,
      {
        cause,
      },
    );
  }
  return connection;
}

/** One server's client, or the cluster's (which sends each command to the node holding its keys). */
export type RedisClient = Redis | Cluster;

export class RedisConnection {
  readonly client: RedisClient;
  private outage: StoreOutageKind | null = null;
  private readonly listeners = new Set<AvailabilityListener>();
  private closed = false;
  private probe: NodeJS.Timeout | undefined;
  /** The last error the client reported (a failed connect says only "Connection is closed."). */
  lastError: unknown = null;

  constructor(private readonly options: RedisConnectionOptions) {
    this.client = createClient(options.config, options.timeoutMs ?? 5000, () => this.closed);
    this.client.on('error', (error: unknown) => {
      this.lastError = error;
      this.down(kindOf(error));
    });
    this.client.on('close', () => this.down('closed'));
    this.client.on('ready', () => this.up());
  }

  /** Null while usable; otherwise why not. */
  get unavailable(): StoreOutageKind | null {
    return this.outage;
  }

  onAvailability(listener: AvailabilityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * True while the server holds the connection open but does not answer: commands then fail at once (rather
   * than each waiting out the command timeout) until a PING is answered.
   */
  get hung(): boolean {
    return this.outage === NO_ANSWER && this.client.status === 'ready';
  }

  /**
   * Counts a failed command: besides a connection that is not ready, an error that says the server cannot serve
   * (LOADING, READONLY, OOM…) and a command the server left unanswered on an open socket are outages too.
   */
  noteFailure(error: unknown): void {
    const kind = kindOf(error);
    if (CANNOT_SERVE.test(kind) || kind === NO_ANSWER || this.client.status !== 'ready') this.down(kind);
  }

  /** A command went through: the store is back if it was down. */
  noteSuccess(): void {
    if (this.outage !== null && this.client.status === 'ready') this.up();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.probe);
    this.listeners.clear();
    await this.client.quit().catch(() => this.client.disconnect());
  }

  private down(kind: StoreOutageKind): void {
    if (this.closed || this.outage !== null) return;
    this.outage = kind;
    this.options.logger.error(
      { store: this.options.config.url, kind },
      'the Redis store is unavailable; updates are not accepted (webhook: 503) or confirmed (polling) until it is back',
    );
    for (const listener of this.listeners) listener(kind);
    // ioredis sees nothing wrong with an open socket that stays silent: no 'ready' will say it is back.
    if (kind === NO_ANSWER && this.client.status === 'ready') this.probeUntilAnswered();
  }

  /** One PING at a time until one is answered (then the outage ends), or the outage ends otherwise (a reconnect). */
  private probeUntilAnswered(): void {
    clearTimeout(this.probe);
    this.probe = setTimeout(() => {
      this.client.ping().then(
        () => this.noteSuccess(),
        () => {
          if (!this.closed && this.outage !== null) this.probeUntilAnswered();
        },
      );
    }, HUNG_PROBE_MS);
    this.probe.unref();
  }

  private up(): void {
    if (this.closed || this.outage === null) return;
    const kind = this.outage;
    this.outage = null;
    this.options.logger.info({ store: this.options.config.url, was: kind }, 'the Redis store is available again; updates are accepted');
    for (const listener of this.listeners) listener(null);
  }
}

/** The client for the setting: one server, or a cluster learnt from its nodes; commands fail at once while it is down. */
function createClient(config: RedisStoreConfig, timeout: number, closed: () => boolean): RedisClient {
  const retry = (times: number) => (closed() ? null : Math.min(100 * times, RECONNECT_CAP_MS));
  const server = {
    ...(config.username ? { username: config.username } : {}),
    ...(config.password ? { password: config.password } : {}),
    ...(config.tls ? { tls: { servername: config.host } } : {}),
    maxRetriesPerRequest: 0,
    connectTimeout: timeout,
    commandTimeout: timeout,
    // A restarted server answers LOADING while it reads its AOF: a failure now, retried by the caller later.
    reconnectOnError: () => false,
  };
  if (!config.cluster) {
    return new Redis({
      host: config.host,
      port: config.port,
      db: config.db,
      ...server,
      lazyConnect: true,
      enableOfflineQueue: false,
      retryStrategy: retry,
      // No auto-pipelining: the store's commands of one pass of the event loop go out in one write all the same
      // (RedisAccess corks the socket), without a pipeline object per pass.
      enableAutoPipelining: false,
    });
  }
  return new Cluster(config.nodes, {
    redisOptions: server,
    lazyConnect: true,
    enableOfflineQueue: false,
    clusterRetryStrategy: retry,
    // Every command goes to its slot's primary: a replica may lag behind what was acknowledged.
    scaleReads: 'master',
    slotsRefreshTimeout: timeout,
    // While a primary fails over, a command for its slots is tried again (not failed) for a short while.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    // TLS certificates name the host as given, not the address it resolves to.
    ...(config.tls ? { dnsLookup: (address: string, callback: (error: null, address: string) => void) => callback(null, address) } : {}),
  });
}

/** A short kind for an error: the socket error code, or the Redis error prefix (LOADING, NOAUTH…). */
export function kindOf(error: unknown): StoreOutageKind {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code) return code;
  const message = error instanceof Error ? error.message : String(error);
  const prefix = /^([A-Z]{3,})\b/.exec(message);
  if (prefix) return prefix[1]!;
  if (/timed? ?out/i.test(message)) return 'ETIMEDOUT';
  if (/isn't writeable|Connection is closed/i.test(message)) return 'closed';
  return 'error';
}

const SOCKET_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is redis-server running on that port?)',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved now',
  ETIMEDOUT: 'no answer in time',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'the connection was reset (TLS expected, rediss://, or not a Redis server?)',
};

/** What went wrong, for a message: the kind and the server's or socket's words (never the address's password: there is none in them). */
export function describeRedisError(error: unknown): string {
  const kind = kindOf(error);
  if (SOCKET_ERRORS[kind]) return `${SOCKET_ERRORS[kind]} (${kind})`;
  const message = error instanceof Error ? error.message : String(error);
  if (/Unknown RESP type|Protocol error/i.test(message)) return 'the server there does not answer as Redis does (another service on that port?)';
  return message.includes(kind) ? message : `${kind}: ${message}`;
}
