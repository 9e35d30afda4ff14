// The store part of the service: the instance lock first (a second instance must leave the first one's
// state and webhook alone), then the file-backed ledger and chat-state store in the bot's own directory.
import type { ServiceConfig } from '../config/types.js';
import { FileLedger } from '../journal/file-ledger.js';
import { InstanceLock, InstanceLockedError } from '../journal/instance-lock.js';
import { botStateDir } from '../journal/update-journal.js';
import type { Logger } from '../log/logger.js';
import type { BotIdentity } from './bot-identity.js';
import { StartupError } from './errors.js';

/** The locked, opened store; `close` writes what is left and releases the lock. */
export interface OpenedStore {
  readonly ledger: FileLedger;
  /** The bot's own directory in the data dir (journal, lock, state requests). */
  readonly stateDir: string;
  close(): Promise<void>;
}

/** Before anything starts: the store the configuration names must be one this build can run on. */
export function requireAvailableStore(config: Pick<ServiceConfig, 'store'>): void {
  // The Redis store is read and checked already; the service runs on it once its ledger is wired in.
  if (config.store.kind === 'redis') throw new StartupError('state', `store ${config.store.url}: the Redis store is not available in this build yet`);
}

/** Locks the bot's state directory and opens the file ledger in it; StartupErrors name the data directory. */
export function openStateStore(config: Pick<ServiceConfig, 'dataDir' | 'mode' | 'state'>, bot: BotIdentity, logger: Logger): OpenedStore {
  const stateDir = botStateDir(config.dataDir, bot.id);
  let lock: InstanceLock;
  try {
    lock = InstanceLock.acquire(stateDir, config.mode);
  } catch (error) {
    if (error instanceof InstanceLockedError) {
      throw new StartupError('locked', `@${bot.username}: ${error.message}; stop it first (one instance per bot and data directory)`, [], { cause: error });
    }
    throw new StartupError('state', `cannot lock the service state in ${stateDir}: ${(error as Error).message}; check data_dir (HEARSAY_DATA_DIR)`, [], {
      cause: error,
    });
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
    throw new StartupError('state', `cannot open the service state in ${stateDir}: ${(error as Error).message}; check data_dir (HEARSAY_DATA_DIR)`, [], {
      cause: error,
    });
  }
  return {
    ledger,
    stateDir,
    close: async () => {
      try {
        await ledger.close();
      } finally {
        lock.release();
      }
    },
  };
}
