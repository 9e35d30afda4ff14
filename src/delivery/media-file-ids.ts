// The file_ids the service gave the bot for the files next to its rules, by kind and content hash: a local
// file is uploaded once, and sent by its file_id from then on (an edited file has a new hash, so it is
// uploaded again). The store keeps them (a file of the file store, a hash of the Redis store) so a restart or
// another replica does not upload again; losing one only costs an upload.
export interface MediaFileIds {
  /** The file_id kept for `key` (see mediaKey), if any. */
  get(key: string): Promise<string | undefined>;
  /** Keeps the file_id the service gave for `key`. */
  remember(key: string, fileId: string): Promise<void>;
  /** Drops a file_id the service refused (it forgot the file, or the bot's token changed hands). */
  forget(key: string): Promise<void>;
}

/** The key of a file sent as `kind` with content hash `hash` (a photo and a document of the same bytes have different ids). */
export function mediaKey(kind: string, hash: string): string {
  return `${kind}:${hash}`;
}

/** File ids kept in memory only (tests, and a store that keeps none). */
export class MemoryMediaFileIds implements MediaFileIds {
  private readonly ids = new Map<string, string>();

  async get(key: string): Promise<string | undefined> {
    return this.ids.get(key);
  }

  async remember(key: string, fileId: string): Promise<void> {
    this.ids.set(key, fileId);
  }

  async forget(key: string): Promise<void> {
    this.ids.delete(key);
  }
}
