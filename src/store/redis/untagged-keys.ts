// Upgrading a bot's data from the key names of earlier versions (`hearsay:bot<id>:…`) to the hash-tagged ones
// (`hearsay:{bot<id>}:…`, one cluster slot per bot): the first replica of this version that opens the store
// renames them once, on one Redis server (a cluster was never supported with the old names), while no replica of
// an earlier version runs; the others wait for it. RENAME keeps each key's value and time to live.
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { Logger } from '../../log/logger.js';
import type { RedisClient } from './redis-connection.js';

/** The key prefix of one bot in earlier versions (no hash tag). */
export const untaggedPrefix = (botId: number): string => `hearsay:bot${botId}:`;

/** Keys every bot's data has one of once a replica of an earlier version ran (its epoch, the done marks, …). */
const MARKERS = ['epoch', 'done:ids', 'inbox:order', 'flows', 'confirmed', 'fx:due'];
const SCAN_COUNT = 1000;
const LOCK_MS = 60_000;
const WAIT_STEP_MS = 200;

/**
 * Renames the bot's keys from the untagged prefix to `prefix`, when there are any: rejects (naming what to do)
 * while a replica of an earlier version still holds a lease on them; another replica renaming them meanwhile
 * is waited for. Nothing happens on a cluster or when no such key exists (one EXISTS).
 */
export async function moveUntaggedKeys(client: RedisClient, botId: number, prefix: string, logger: Logger): Promise<void> {
  if (!(client instanceof Redis)) return;
  const old = untaggedPrefix(botId);
  if ((await client.exists(...MARKERS.map((name) => old + name))) === 0) return;
  const [live] = await scanKeys(client, `${old}replica:*`, 1);
  if (live !== undefined) {
    throw new Error(
      `a replica of an earlier hearsay version still runs on this bot's Redis keys (${old}…): stop every replica, then start this version, which renames the keys once (a replica killed less than 10 s ago still counts)`,
    );
  }
  const lock = `${prefix}renaming`;
  if ((await client.set(lock, String(process.pid), 'PX', LOCK_MS, 'NX')) !== 'OK') {
    while ((await client.exists(lock)) === 1) await sleep(WAIT_STEP_MS);
    return;
  }
  try {
    let moved = 0;
    for (let keys = await scanKeys(client, `${old}*`); keys.length > 0; keys = await scanKeys(client, `${old}*`)) {
      const renames = client.pipeline();
      for (const key of keys) renames.rename(key, prefix + key.slice(old.length));
      // A key that expired since the scan is simply not there to rename.
      moved += ((await renames.exec()) ?? []).filter(([error]) => error === null).length;
    }
    logger.info({ keys: moved, from: `${old}…`, to: `${prefix}…` }, "renamed this bot's Redis keys to the hash-tagged names of this version (once)");
  } finally {
    await client.del(lock);
  }
}

/** Every key matching the pattern (or the first `limit`), by SCAN: never a KEYS that would block the server. */
export async function scanKeys(client: Redis, pattern: string, limit = Infinity): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0' && found.length < limit);
  return found;
}
