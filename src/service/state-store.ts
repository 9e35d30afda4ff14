// The store part of the service: the file store (the instance lock first — a second instance must leave
// the first one's state and webhook alone — then the file-backed ledger and chat-state store in the bot's own
// directory), or the Redis store that several replicas share (no lock: replicas are the point).
import type { ServiceConfig } from '../config/types.js';
import { FileLedger } from '../journal/file-ledger.js';
import { InstanceLock, InstanceLockedError } from '../journal/instance-lock.js';
import { botStateDir } from '../journal/update-journal.js';
import type { Logger } from '../log/logger.js';
import type { ChatStateStore, UpdateLedger } from '../pipeline/ports.js';
import type { OpenedRedisStore } from '../store/redis/open-redis-store.js';
import type { BotIdentity } from './bot-identity.js';
import { HearsayError } from '../errors/hearsay-error.js';

/** The locked, opened store; `close` writes what is left and releases the lock. */
export interface OpenedStore {
  readonly ledger: UpdateLedger & ChatStateStore;
  /** The bot's own directory in the data dir (journal, lock, state requests; unused by a Redis store). */
  readonly stateDir: string;
  /** The Redis store's outage reports and takeover pace; null for the file store. */
  readonly redis: OpenedRedisStore | null;
  close(): Promise<void>;
}

/** The store the configuration names: the file ledger in the bot's locked state directory, or the shared Redis store; HearsayErrors say what to check. */
export async function openStateStore(
  config: Pick<ServiceConfig, 'dataDir' | 'mode' | 'store' | 'state'>,
  bot: BotIdentity,
  logger: Logger,
): Promise<OpenedStore> {
  if (config.store.kind === 'redis') {
    try {
      // Loaded only for this store: the Redis client is not part of a file-store start.
      const { openRedisStore } = await import('../store/redis/open-redis-store.js');
      // Polling replicas share an inbox too: the leader stores what it fetches, every replica claims from it.
      const redis = await openRedisStore({
        config: config.store,
        botId: bot.id,
        inbox: true,
        logger,
        stateTtlMs: config.state.ttlMs,
        maxUserBytes: config.state.maxUserBytes,
      });
      return { ledger: redis.ledger, stateDir: botStateDir(config.dataDir, bot.id), redis, close: redis.close };
    } catch (error) {
      throw new HearsayError('HS_ERR_STORE_OPEN_FAILED', [(error as Error).message], { cause: error });
    }
  }
  const stateDir = botStateDir(config.dataDir, bot.id);
  let lock: InstanceLock;
  try {
    lock = InstanceLock.acquire(stateDir, config.mode);
  } catch (error) {
    if (error instanceof InstanceLockedError) {
      throw new HearsayError('HS_ERR_INSTANCE_LOCKED', [bot.username, error.ownerDescription, error.path], { cause: error });
    }
    throw new HearsayError('HS_ERR_STATE_LOCK_FAILED', [stateDir, (error as Error).message], { cause: error });
  }
  let ledger: FileLedger;
  try {
    ledger = FileLedger.open({
      dir: stateDir,
      logger,
      inbox: config.mode === 'webhook',
      state: { ttlMs: config.state.ttlMs, maxUserBytes: config.state.maxUserBytes },
    });
  } catch (error) {
    lock.release();
    throw new HearsayError('HS_ERR_STATE_OPEN_FAILED', [stateDir, (error as Error).message], { cause: error });
  }
  return {
    ledger,
    stateDir,
    redis: null,
    close: async () => {
      try {
        await ledger.close();
      } finally {
        lock.release();
      }
    },
  };
}
