// The store as an operator's command sees it (`hearsay state show|forget`), opened through the same door for
// both stores, without ever making a second writer: on files, with the bot stopped the command takes the
// instance lock and works on the journal itself, and with the bot running it asks that instance (the only
// writer) through a request file; on Redis it works on Redis directly (every write there is one atomic script,
// and replicas share it anyway).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceConfig } from '../config/types.js';
import { createLogger } from '../log/logger.js';
import { InstanceLock, InstanceLockedError } from './file/instance-lock.js';
import { askRunningInstance, type StateRequest } from './file/state-requests.js';
import { botStateDir, JOURNAL_FILE, UpdateJournal } from './file/update-journal.js';
import type { UserRecord } from './records.js';

export { NoAnswerError } from './file/state-requests.js';

/** One operator request: what is kept about a user, or forgetting it. */
export type OperatorRequest = StateRequest;

/**
 * Carries out `request` on the bot's store: resolves with the user's record (for forget: what was kept before).
 * Rejects with a message that names what to check (the store, the running instance); {@link NoAnswerError}
 * when a running instance did not answer in time.
 */
export async function operateOnStore(config: Pick<ServiceConfig, 'dataDir' | 'store' | 'state'>, botId: number, request: OperatorRequest): Promise<UserRecord> {
  if (config.store.kind === 'redis') return onRedis(config.store, botId, request);
  const stateDir = botStateDir(config.dataDir, botId);
  // No journal: the bot never ran on this data directory, so nothing is kept (and nothing is created).
  if (!existsSync(join(stateDir, JOURNAL_FILE))) return { userId: request.userId, variables: null, flows: [], effects: [] };
  return onFiles(stateDir, config.state, request);
}

async function onRedis(store: Extract<ServiceConfig['store'], { kind: 'redis' }>, botId: number, request: OperatorRequest): Promise<UserRecord> {
  // Loaded only for a Redis store, like the service does.
  const { openRedisStateStore } = await import('./redis/open-redis-store.js');
  let ledger;
  try {
    ledger = await openRedisStateStore(store, botId, createLogger({ level: 'silent' }));
  } catch (error) {
    throw new Error(`${(error as Error).message}; check store (HEARSAY_STORE) and the store password`, { cause: error });
  }
  try {
    return request.op === 'show' ? await ledger.userRecord(request.userId) : await ledger.forgetUser(request.userId);
  } finally {
    await ledger.close();
  }
}

/** Works on the journal itself when no instance runs (under its lock), else asks the running one. */
async function onFiles(stateDir: string, state: ServiceConfig['state'], request: OperatorRequest): Promise<UserRecord> {
  let lock: InstanceLock;
  try {
    lock = await InstanceLock.acquire(stateDir, `hearsay state ${request.op}`);
  } catch (error) {
    if (!(error instanceof InstanceLockedError)) throw error;
    const response = await askRunningInstance(stateDir, request);
    if (!response.ok) throw new Error(`the running instance could not do it: ${response.error}`);
    return response.state as UserRecord;
  }
  try {
    const journal = UpdateJournal.open({ dir: stateDir, logger: createLogger({ level: 'silent' }), maintenance: true, state });
    try {
      const record = { ...journal.userRecord(request.userId), effects: journal.effects.ofUser(request.userId) };
      if (request.op === 'forget') await journal.forgetUser(request.userId);
      return record;
    } finally {
      await journal.close();
    }
  } finally {
    lock.release();
  }
}
