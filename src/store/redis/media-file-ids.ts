// The file_ids of the bot's uploaded rule files, shared by every replica: one Redis hash under the bot's prefix
// (`<prefix>media`), kind and content hash → file_id. A replica that finds one sends the file by it instead of
// uploading it again.
import type { MediaFileIds } from '../../delivery/media-file-ids.js';
import { script } from './redis-access.js';
import type { RedisLedger } from './redis-ledger.js';

/** KEYS[1]: the bot's prefix. ARGV[1]: the file's key → its file_id, or nil. */
const GET = script(`return redis.call('HGET', KEYS[1] .. 'media', ARGV[1])`);
/** KEYS[1]: the bot's prefix. ARGV[1]: the file's key, ARGV[2]: its file_id. */
const SET = script(`redis.call('HSET', KEYS[1] .. 'media', ARGV[1], ARGV[2]) return 1`);
/** KEYS[1]: the bot's prefix. ARGV[1]: the file's key. */
const DELETE = script(`redis.call('HDEL', KEYS[1] .. 'media', ARGV[1]) return 1`);

export class RedisMediaFileIds implements MediaFileIds {
  constructor(private readonly ledger: RedisLedger) {}

  async get(key: string): Promise<string | undefined> {
    const id = await this.ledger.runScript(GET, [], [key]);
    return typeof id === 'string' ? id : undefined;
  }

  async remember(key: string, fileId: string): Promise<void> {
    await this.ledger.runScript(SET, [], [key, fileId]);
  }

  async forget(key: string): Promise<void> {
    await this.ledger.runScript(DELETE, [], [key]);
  }
}
