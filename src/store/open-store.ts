// The one door to a bot's store, for the service (`hearsay run`, `hearsay start`) and for every command that
// reads or changes one (`hearsay state`): the file store (the instance lock first — a second instance must
// leave the first one's state and webhook alone — then the journal in the bot's own directory), or the Redis
// store that several replicas share (no lock: replicas are the point). Nothing else opens a store.
import { join } from 'node:path';
import type { ServiceConfig } from '../config/types.js';
import type { RateLimiter, RateLimitSettings } from '../delivery/rate-limiter.js';
import { HearsayError } from '../errors/hearsay-error.js';
import type { Logger } from '../log/logger.js';
import type { EffectOutbox } from '../pipeline/outbox-port.js';
import type { ChatSequencer, ChatStateStore, UpdateLedger } from '../pipeline/ports.js';
import type { PollLeadership, StoreDataLoss } from '../pipeline/replica-ports.js';
import { MemoryMediaFileIds, type MediaFileIds } from '../delivery/media-file-ids.js';
import type { CampaignBook } from '../pipeline/broadcast-port.js';
import { FileCampaignBook } from './file/campaign-file.js';
import { FileLedger } from './file/file-ledger.js';
import { FileMediaFileIds } from './file/media-file-ids.js';
import { describeOwner, type LockOwner } from './file/lock-owner.js';
import { InstanceLock, InstanceLockedError, LOCK_FILE } from './file/instance-lock.js';
import { botStateDir } from './file/update-journal.js';

/** The bot a store is opened for. */
export interface StoreOwner {
  readonly id: number;
  readonly username: string;
}

/**
 * What a store shared by replicas adds (the Redis store). Left out on purpose: how the store reaches its
 * server, and its keys — the service sees only these capabilities.
 */
export interface SharedStore {
  /** Polling with replicas: the lease and the shared inbox. */
  readonly leadership: PollLeadership;
  /** How often to look for work left in the store (an outage cut short, a dead replica's inbox). */
  readonly takeOverEveryMs: number;
  /** Told when the store becomes unusable (with the kind of outage) and usable again (null); returns an unsubscribe function. */
  onAvailability(listener: (outage: string | null) => void): () => void;
  /** Told each time this replica finds that the store lost its data; returns an unsubscribe function. */
  onDataLost(listener: (loss: StoreDataLoss) => void): () => void;
  /** A chat sequencer that keeps one chat's updates in order across every replica. */
  sequencer(concurrency: number): ChatSequencer;
  /** The sending limits kept together by every replica (N replicas must not send N times the overall limit); `fallback` while the store is down. */
  rateLimiter(limits: RateLimitSettings, fallback: RateLimiter, logger: Logger): RateLimiter;
}

/** The opened (and, for files, locked) store; `close` writes what is left and releases the lock. */
export interface OpenedStore {
  readonly ledger: UpdateLedger & ChatStateStore & EffectOutbox;
  /** The bot's own directory in the data dir (journal, lock, state requests; unused by a Redis store). */
  readonly stateDir: string;
  /** Replicas' capabilities of a shared store; null for a store of one process. */
  readonly shared: SharedStore | null;
  /** The file_ids of the rule files the bot uploaded, by kind and content hash (see delivery/media-file-ids.ts). */
  readonly mediaFileIds: MediaFileIds;
  /** The broadcasts' campaigns and their recipients' outcomes (see pipeline/broadcast-port.ts). */
  readonly campaigns: CampaignBook;
  close(): Promise<void>;
}

/** The store the configuration names, for the running service; HearsayErrors say what to check. */
export async function openStore(config: Pick<ServiceConfig, 'dataDir' | 'mode' | 'store' | 'state'>, bot: StoreOwner, logger: Logger): Promise<OpenedStore> {
  const stateDir = botStateDir(config.dataDir, bot.id);
  if (config.store.kind === 'redis') {
    try {
      // Loaded only for this store: the Redis client is not part of a file-store start.
      const { openRedisStore } = await import('./redis/open-redis-store.js');
      const { RedisMediaFileIds } = await import('./redis/media-file-ids.js');
      const { RedisCampaignBook } = await import('./redis/redis-campaigns.js');
      // Polling replicas share an inbox too: the leader stores what it fetches, every replica claims from it.
      const redis = await openRedisStore({
        config: config.store,
        botId: bot.id,
        inbox: true,
        logger,
        stateTtlMs: config.state.ttlMs,
        maxUserBytes: config.state.maxUserBytes,
      });
      return {
        ledger: redis.ledger,
        stateDir,
        shared: redis.shared,
        mediaFileIds: new RedisMediaFileIds(redis.ledger),
        campaigns: new RedisCampaignBook(redis.ledger, config.state.ttlMs),
        close: redis.close,
      };
    } catch (error) {
      throw new HearsayError('HS_ERR_STORE_OPEN_FAILED', [(error as Error).message], { cause: error });
    }
  }
  const lock = await lockStateDir(stateDir, config.mode, bot, logger);
  let ledger: FileLedger;
  let campaigns: CampaignBook;
  try {
    campaigns = new FileCampaignBook(stateDir, { ttlMs: config.state.ttlMs });
    ledger = FileLedger.open({
      dir: stateDir,
      logger,
      // Webhook: updates held too long; polling: updates fetched past while still in hand (one chat's backlog).
      inbox: true,
      state: { ttlMs: config.state.ttlMs, maxUserBytes: config.state.maxUserBytes },
    });
  } catch (error) {
    lock.release();
    throw new HearsayError('HS_ERR_STATE_OPEN_FAILED', [stateDir, (error as Error).message], { cause: error });
  }
  return {
    ledger,
    stateDir,
    shared: null,
    mediaFileIds: await fileMediaFileIds(stateDir, logger),
    campaigns,
    close: async () => {
      try {
        await ledger.close();
      } finally {
        lock.release();
      }
    },
  };
}

/** The instance lock of the file store, with what a takeover or a lost lock means said in the log. */
async function lockStateDir(stateDir: string, mode: string, bot: StoreOwner, logger: Logger): Promise<InstanceLock> {
  const onLost = (owner: LockOwner | null): void =>
    logger.error(
      { lock: join(stateDir, LOCK_FILE), owner: owner ? describeOwner(owner) : null },
      'the instance lock is no longer ours (removed, or taken over by another instance): two instances may now share this data directory; stop one of them',
    );
  let lock: InstanceLock;
  try {
    lock = await InstanceLock.acquire(stateDir, mode, { onLost });
  } catch (error) {
    if (error instanceof InstanceLockedError) {
      throw new HearsayError('HS_ERR_INSTANCE_LOCKED', [bot.username, error.ownerDescription, error.path, error.advice], { cause: error });
    }
    throw new HearsayError('HS_ERR_STATE_LOCK_FAILED', [stateDir, (error as Error).message], { cause: error });
  }
  if (lock.tookOver) {
    const { owner, why } = lock.tookOver;
    logger.warn({ lock: lock.path, previous_owner: describeOwner(owner), reason: why }, 'took over the instance lock left by an instance that is gone');
  }
  return lock;
}

/** The file store's file_ids of uploaded rule files; when they cannot be read, none (not worth refusing to start: the files are uploaded again). */
async function fileMediaFileIds(stateDir: string, logger: Logger): Promise<MediaFileIds> {
  try {
    return await FileMediaFileIds.open(stateDir);
  } catch (error) {
    logger.warn({ reason: (error as Error).message }, 'could not read the file_ids of uploaded rule files; they will be uploaded again');
    return new MemoryMediaFileIds();
  }
}
