// The file_ids of the bot's uploaded rule files in the file store: one line per change in
// `media-file-ids.jsonl` in the bot's state directory (`{"key", "file_id"}`, or `{"key", "forget": true}`),
// read once at open. Losing the last line to a crash only costs one upload, so a line is not flushed to disk.
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaFileIds } from '../../delivery/media-file-ids.js';

const FILE = 'media-file-ids.jsonl';

export class FileMediaFileIds implements MediaFileIds {
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly ids: Map<string, string>,
  ) {}

  /** Reads the file in `dir` (none yet: no file_ids), and writes it anew when it holds more lines than ids. */
  static async open(dir: string): Promise<FileMediaFileIds> {
    const path = join(dir, FILE);
    const ids = new Map<string, string>();
    let lines: string[] = [];
    try {
      lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const line of lines) {
      try {
        const entry = JSON.parse(line) as { key?: unknown; file_id?: unknown; forget?: unknown };
        if (typeof entry.key !== 'string') continue;
        if (entry.forget === true) ids.delete(entry.key);
        else if (typeof entry.file_id === 'string') ids.set(entry.key, entry.file_id);
      } catch {
        // A line cut short by a crash: the file it named is uploaded again.
      }
    }
    if (lines.length > 2 * ids.size + 16) await writeFile(path, [...ids].map(([key, id]) => `${JSON.stringify({ key, file_id: id })}\n`).join(''));
    return new FileMediaFileIds(path, ids);
  }

  async get(key: string): Promise<string | undefined> {
    return this.ids.get(key);
  }

  remember(key: string, fileId: string): Promise<void> {
    this.ids.set(key, fileId);
    return this.append({ key, file_id: fileId });
  }

  forget(key: string): Promise<void> {
    this.ids.delete(key);
    return this.append({ key, forget: true });
  }

  /** Appends one line, after the lines before it. */
  private append(entry: object): Promise<void> {
    this.writes = this.writes.then(() => appendFile(this.path, `${JSON.stringify(entry)}\n`)).catch(() => undefined);
    return this.writes;
  }
}
