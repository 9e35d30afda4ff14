// Opens the Redis store for one bot: connects (the start fails with a clear message when the server cannot
// be reached), opens the ledger under the bot's key prefix, learns the epoch of the bot's data there (to
// notice a store that lost it), and gives the service what it needs to report and recover from outages.
import type { RedisStoreConfig } from '../../config/store.js';
import type { Logger } from '../../log/logger.js';
import type { SharedStore } from '../open-store.js';
import { RedisChatSequencer } from './chat-turns.js';
import { RedisPollLeadership } from './poll-lease.js';
import { connectRedis } from './redis-connection.js';
import { botKeyPrefix, RedisLedger } from './redis-ledger.js';
import { SharedRateLimiter } from './shared-rate-limits.js';
import { StoreEpoch } from './store-epoch.js';
import { moveUntaggedKeys } from './untagged-keys.js';

/** The Redis store of one running service: the ledger and what replicas share beside it. */
export interface OpenedRedisStore {
  readonly ledger: RedisLedger;
  readonly shared: SharedStore;
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
    await moveUntaggedKeys(connection.client, options.botId, botKeyPrefix(options.botId), options.logger);
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
  let epoch: StoreEpoch;
  try {
    epoch = await StoreEpoch.open({ ledger, connection, logger: options.logger, storeUrl: options.config.url });
  } catch (error) {
    await ledger.close();
    throw error;
  }
  options.logger.info({ store: options.config.url, replica: ledger.owner }, 'using the Redis store');
  const shared: SharedStore = {
    leadership: new RedisPollLeadership(ledger),
    // Half the lease: a dead replica's work is taken up soon after its lease ran out.
    takeOverEveryMs: Math.max(100, Math.floor(leaseMs / 2)),
    onAvailability: (listener) => connection.onAvailability(listener),
    onDataLost: (listener) => epoch.onDataLost(listener),
    sequencer: (concurrency) => new RedisChatSequencer(ledger, { concurrency }),
    rateLimiter: (limits, fallback, logger) => new SharedRateLimiter({ ledger, limits, fallback, logger }),
  };
  const close = (): Promise<void> => {
    epoch.close();
    return ledger.close();
  };
  return { ledger, shared, close };
}

/**
 * The state of one bot in the Redis store, for `hearsay state show|forget`: no replica lease and nothing taken
 * over, so running it beside the replicas changes nothing but the user it forgets. Rejects when the server
 * cannot be reached (the message names host:port, never the password).
 */
export async function openRedisStateStore(config: RedisStoreConfig, botId: number, logger: Logger): Promise<RedisLedger> {
  const connection = await connectRedis({ config, logger });
  try {
    await moveUntaggedKeys(connection.client, botId, botKeyPrefix(botId), logger);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return RedisLedger.open({ connection, prefix: botKeyPrefix(botId), logger, inbox: false, maintenance: true });
}
