// What the Redis server promises about a write it acknowledged: checked once at start, so an operator whose
// server could lose accepted updates in its own crash hears it (docs/scaling.md has the settings).
import type { Redis } from 'ioredis';
import type { Logger } from '../../log/logger.js';

/** What a server can be asked to wait for after a write. */
export interface ServerPersistence {
  /** The server has WAITAOF (Redis 7.2+: a write can be waited for until it is on disk). */
  waitAof: boolean;
  /** Replicas connected to it now (a write can be waited for until one has it: WAIT). */
  replicas: number;
}

/** How many replicas of the server follow it now (INFO replication: online, not still loading a full copy). */
export async function connectedReplicas(client: Redis): Promise<number> {
  const info = await client.info('replication');
  return info.split('\n').filter((line) => /^slave\d+:.*state=online/.test(line)).length;
}

/**
 * What the server can wait for (WAITAOF, replicas); warns when its settings (where CONFIG may be read) do not
 * put every acknowledged write on disk.
 */
export async function checkPersistence(client: Redis, logger: Logger): Promise<ServerPersistence> {
  const info = await client.info('server');
  const version = /redis_version:(\d+)\.(\d+)/.exec(info);
  const waitAof = version !== null && (Number(version[1]) > 7 || (Number(version[1]) === 7 && Number(version[2]) >= 2));
  try {
    const config = (await client.config('GET', 'append*')) as string[];
    const settings = new Map<string, string>();
    for (let i = 0; i + 1 < config.length; i += 2) settings.set(config[i]!, config[i + 1]!);
    const durable = settings.get('appendonly') === 'yes' && (waitAof || settings.get('appendfsync') === 'always');
    if (!durable) {
      logger.warn(
        { appendonly: settings.get('appendonly'), appendfsync: settings.get('appendfsync') },
        'the Redis store does not write every change to disk before answering (set appendonly yes and appendfsync always); a crash of Redis itself can lose accepted updates',
      );
    }
  } catch {
    // CONFIG is often disabled on managed servers: their persistence is the operator's to set.
  }
  return { waitAof, replicas: await connectedReplicas(client) };
}
