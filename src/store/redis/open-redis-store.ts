// Opens the Redis store for one bot: connects (the start fails with a clear message when the server cannot
// be reached), opens the ledger under the bot's key prefix, and gives the service what it needs to report
// and recover from outages.
import type { RedisStoreConfig } from '../../config/store.js';
import type { Logger } from '../../log/logger.js';
import { connectRedis, type AvailabilityListener } from './redis-connection.js';
import { botKeyPrefix, RedisLedger } from './redis-ledger.js';

/** The Redis store of one running service. */
export interface OpenedRedisStore {
  readonly ledger: RedisLedger;
  /** How often to look for work left in the store (this replica's failed updates, dead replicas' inbox): half the lease. */
  readonly takeOverEveryMs: number;
  /** Told when the store becomes unusable (with the kind) and usable again (null); returns an unsubscribe function. */
  onAvailability(listener: AvailabilityListener): () => void;
  close(): Promise<void>;
}

export interface OpenRedisStoreOptions {
  config: RedisStoreConfig;
  botId: number;
  /** Keep an inbox of accepted updates (webhook mode). */
  inbox: boolean;
  logger: Logger;
  /** How long a dead replica's work stays its own (default 10 s). */
  leaseMs?: number;
  /** `state.ttl`: conversation state unchanged this long expires. */
  stateTtlMs?: number;
  /** `state.max_user_bytes`. */
  maxUserBytes?: number;
}

const DEFAULT_LEASE_MS = 10_000;

export async function openRedisStore(options: OpenRedisStoreOptions): Promise<OpenedRedisStore> {
  const connection = await connectRedis({ config: options.config, logger: options.logger });
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  let ledger: RedisLedger;
  try {
    ledger = await RedisLedger.open({
      connection,
      prefix: botKeyPrefix(options.botId),
      logger: options.logger,
      inbox: options.inbox,
      leaseMs,
      ...(options.stateTtlMs !== undefined ? { stateTtlMs: options.stateTtlMs } : {}),
      ...(options.maxUserBytes !== undefined ? { maxUserBytes: options.maxUserBytes } : {}),
    });
  } catch (error) {
    await connection.close();
    throw error;
  }
  options.logger.info({ store: options.config.url, replica: ledger.owner }, 'using the Redis store');
  return {
    ledger,
    takeOverEveryMs: Math.max(100, Math.floor(leaseMs / 2)),
    onAvailability: (listener) => connection.onAvailability(listener),
    close: () => ledger.close(),
  };
}

/**
 * The state of one bot in the Redis store, for `hearsay state show|forget`: no replica lease and nothing taken
 * over, so running it beside the replicas changes nothing but the user it forgets. Rejects when the server
 * cannot be reached (the message names host:port, never the password).
 */
export async function openRedisStateStore(config: RedisStoreConfig, botId: number, logger: Logger): Promise<RedisLedger> {
  const connection = await connectRedis({ config, logger });
  return RedisLedger.open({ connection, prefix: botKeyPrefix(botId), logger, inbox: false, maintenance: true });
}
