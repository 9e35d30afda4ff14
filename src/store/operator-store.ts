// The store as an operator's command sees it (`hearsay state show|forget`, `hearsay broadcast`), opened through the
// same door for both stores, without ever making a second writer: on files, with the bot stopped the command takes
// the instance lock and works on the journal itself, and with the bot running it asks that instance (the only
// writer) through a request file; on Redis it works on Redis directly (every write there is one atomic script,
// and replicas share it anyway).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceConfig } from '../config/types.js';
import { createLogger } from '../log/logger.js';
import type { CampaignBook } from '../pipeline/broadcast-port.js';
import { forgetRecipient, handleBroadcast, type BroadcastAnswer, type BroadcastRequest, type BroadcastStore } from '../pipeline/broadcasts.js';
import { FileCampaignBook } from './file/campaign-file.js';
import { InstanceLock, InstanceLockedError } from './file/instance-lock.js';
import { askRunningInstance, type StateRequest, type UserStateRequest } from './file/state-requests.js';
import { botStateDir, JOURNAL_FILE, UpdateJournal } from './file/update-journal.js';
import type { UserRecord } from './records.js';

export { NoAnswerError } from './file/state-requests.js';

/** One operator request about a user: what is kept about them, or forgetting it. */
export type OperatorRequest = UserStateRequest;

type StoreConfig = Pick<ServiceConfig, 'dataDir' | 'store' | 'state'>;

/** Where a broadcast request was carried out: by the running bot, on a stopped bot's files, or on Redis (every replica's). */
export type BroadcastVenue = 'running' | 'stopped' | 'redis';

/** How one request is carried out on each kind of store. */
interface Operation<T> {
  readonly request: StateRequest;
  /** With nothing kept yet (no journal). */
  readonly empty: () => T;
  /** On Redis, or on a stopped bot's journal (under its lock). */
  readonly direct: (store: BroadcastStore & { userRecord(userId: number): Promise<unknown>; forgetUser(userId: number): Promise<unknown> }) => Promise<T>;
}

/**
 * Carries out `request` on the bot's store: resolves with the user's record (for forget: what was kept before).
 * Rejects with a message that names what to check (the store, the running instance); {@link NoAnswerError}
 * when a running instance did not answer in time.
 */
export async function operateOnStore(config: StoreConfig, botId: number, request: OperatorRequest): Promise<UserRecord> {
  const { answer } = await operate<UserRecord>(config, botId, {
    request,
    empty: () => ({ userId: request.userId, variables: null, flows: [], effects: [] }),
    direct: async (store) => (request.op === 'show' ? store.userRecord(request.userId) : forgetRecipient(store, request.userId)) as Promise<UserRecord>,
  });
  return answer;
}

/** Carries out a broadcast request (see pipeline/broadcasts.ts) on the bot's store; says where it was carried out. */
export async function broadcastOnStore(
  config: StoreConfig,
  botId: number,
  request: BroadcastRequest,
): Promise<{ answer: BroadcastAnswer; venue: BroadcastVenue }> {
  return operate<BroadcastAnswer>(config, botId, {
    request,
    empty: () => {
      if (request.op === 'broadcast') return { op: 'broadcast', count: 0, samples: [] };
      if (request.op === 'broadcast-status' && request.id === undefined) return { op: 'broadcast-status', campaigns: [] };
      throw new Error(`no campaign '${request.id ?? ''}' is kept; 'hearsay broadcast status' lists them`);
    },
    direct: (store) => handleBroadcast(store, request),
  });
}

async function operate<T>(config: StoreConfig, botId: number, operation: Operation<T>): Promise<{ answer: T; venue: BroadcastVenue }> {
  if (config.store.kind === 'redis') return { answer: await onRedis(config.store, config.state.ttlMs, botId, operation), venue: 'redis' };
  const stateDir = botStateDir(config.dataDir, botId);
  // No journal: the bot never ran on this data directory, so nothing is kept (and nothing is created).
  if (!existsSync(join(stateDir, JOURNAL_FILE))) return { answer: operation.empty(), venue: 'stopped' };
  return onFiles(stateDir, config.state, operation);
}

async function onRedis<T>(store: Extract<ServiceConfig['store'], { kind: 'redis' }>, ttlMs: number, botId: number, operation: Operation<T>): Promise<T> {
  // Loaded only for a Redis store, like the service does.
  const { openRedisStateStore } = await import('./redis/open-redis-store.js');
  const { RedisCampaignBook } = await import('./redis/redis-campaigns.js');
  let ledger;
  try {
    ledger = await openRedisStateStore(store, botId, createLogger({ level: 'silent' }));
  } catch (error) {
    throw new Error(`${(error as Error).message}; check store (HEARSAY_STORE) and the store password`, { cause: error });
  }
  try {
    const campaigns: CampaignBook = new RedisCampaignBook(ledger, ttlMs);
    const redis = ledger;
    return await operation.direct({
      knownUsers: () => redis.knownUsers(),
      commitState: (state) => redis.commitState(state),
      campaigns,
      userRecord: (userId) => redis.userRecord(userId),
      forgetUser: (userId) => redis.forgetUser(userId),
    });
  } finally {
    await ledger.close();
  }
}

/** Works on the journal itself when no instance runs (under its lock), else asks the running one. */
async function onFiles<T>(stateDir: string, state: ServiceConfig['state'], operation: Operation<T>): Promise<{ answer: T; venue: BroadcastVenue }> {
  let lock: InstanceLock;
  try {
    lock = await InstanceLock.acquire(stateDir, `hearsay ${operation.request.op.startsWith('broadcast') ? 'broadcast' : `state ${operation.request.op}`}`);
  } catch (error) {
    if (!(error instanceof InstanceLockedError)) throw error;
    const response = await askRunningInstance(stateDir, operation.request);
    if (!response.ok) throw new Error(`the running instance could not do it: ${response.error}`);
    return { answer: response.state as T, venue: 'running' };
  }
  try {
    const journal = UpdateJournal.open({ dir: stateDir, logger: createLogger({ level: 'silent' }), maintenance: true, state });
    try {
      const answer = await operation.direct({
        knownUsers: async () => journal.documents.knownUsers(),
        commitState: (commit) => journal.commitState(commit),
        campaigns: new FileCampaignBook(stateDir, { ttlMs: state.ttlMs }),
        userRecord: async (userId) => ({ ...journal.userRecord(userId), effects: journal.effects.ofUser(userId) }),
        forgetUser: async (userId) => {
          const record = { ...journal.userRecord(userId), effects: journal.effects.ofUser(userId) };
          await journal.forgetUser(userId);
          return record;
        },
      });
      return { answer, venue: 'stopped' };
    } finally {
      await journal.close();
    }
  } finally {
    lock.release();
  }
}
