// The files next to the rules that rules send (`photo: media/menu.jpg`): found relative to the rules
// directory and read at load time, so compiling knows each one's size and content hash (an edited file gets a
// new hash, and is uploaded again) or why it cannot be sent. A file unchanged since the loader's last load
// (same size, modification time and inode) is not read again.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { MediaLookup } from '../engine/compile-media.js';
import { classifyMediaValue, type MediaSource } from '../engine/media.js';
import { describeFsError } from './rule-files.js';

/** Larger files are not read: the service takes none over 50 MB, and check says so from the size alone. */
const LARGEST_READ = 50 * 1024 * 1024;

/** A file read by an earlier load, with what identified it then. */
export interface KnownMediaFile {
  readonly stamp: string;
  readonly source: MediaSource;
}

/** What the media of one load came to: the lookup compiling uses, and every local path named (watched for changes). */
export interface ResolvedMedia {
  readonly lookup: MediaLookup;
  readonly paths: readonly string[];
}

/** Every media value (file path, URL or file_id) in the rule files' data: under photo … sticker, per language, and in albums. */
export function mediaValues(data: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(data)) {
    for (const item of data) mediaValues(item, into);
    return into;
  }
  if (data === null || typeof data !== 'object') return into;
  for (const [key, value] of Object.entries(data)) {
    if (FILE_KEYS.has(key) && typeof value === 'string') into.add(value);
    else if (FILE_KEYS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const file of Object.values(value)) if (typeof file === 'string') into.add(file);
    } else if (key === 'album' && Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string') into.add(item);
      mediaValues(
        value.filter((item) => typeof item === 'object'),
        into,
      );
    } else if (value !== null && typeof value === 'object') mediaValues(value, into);
  }
  return into;
}

const FILE_KEYS = new Set(['photo', 'document', 'video', 'audio', 'voice', 'animation', 'sticker']);

/** Reads the local files among `values` (paths relative to `baseDir`); `known` holds the previous load's, and is updated. */
export async function resolveMedia(values: Iterable<string>, baseDir: string, known: Map<string, KnownMediaFile>): Promise<ResolvedMedia> {
  const found = new Map<string, MediaSource | { problem: string }>();
  const paths: string[] = [];
  for (const value of values) {
    const kind = classifyMediaValue(value).kind;
    // A template is filled in when the media is sent (a file_id or a URL): nothing to read now.
    if (kind === 'template') continue;
    if (kind === 'url') found.set(value, { kind: 'url', url: value });
    else if (kind === 'file_id') found.set(value, { kind: 'file_id', fileId: value });
    else {
      const path = resolve(baseDir, value);
      paths.push(path);
      found.set(value, await readMediaFile(path, value, known));
    }
  }
  const lookup: MediaLookup = (value) => found.get(value) ?? { problem: `${value} was not read with the rules` };
  return { lookup, paths };
}

async function readMediaFile(path: string, value: string, known: Map<string, KnownMediaFile>): Promise<MediaSource | { problem: string }> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return { problem: `${value} is not a file (${path})` };
    const stamp = `${info.size}|${info.mtimeMs}|${info.ino}`;
    const earlier = known.get(path);
    if (earlier?.stamp === stamp) return earlier.source;
    // Over the largest limit, the size alone says it cannot be sent: the file is not read.
    const hash =
      info.size > LARGEST_READ
        ? `size:${info.size}`
        : createHash('sha256')
            .update(await readFile(path))
            .digest('hex');
    const source: MediaSource = { kind: 'file', path, name: basename(path), hash, size: info.size };
    known.set(path, { stamp, source });
    return source;
  } catch (error) {
    known.delete(path);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { problem: `no such file: ${value} (looked for ${path}; paths are relative to the rules directory)` };
    return { problem: `cannot read ${value}: ${describeFsError(error)}` };
  }
}
