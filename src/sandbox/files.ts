// The sandbox's files: the bytes of every photo, document, voice… uploaded by a bot or a user, each with the
// file ids that bots know it by. As on the real service a file_id belongs to one bot (another bot's id is
// refused) while file_unique_id is the same for everyone; ids look like the service's (base64url, a type
// prefix such as "AgAC" for photos) and say nothing a bot could use.
import { randomBytes } from 'node:crypto';
import { badRequest } from './api-failure.js';
import { describeFile, type FileFacts } from './file-facts.js';

/** The kinds of file a message carries; a photo is of its own class, every other kind is a document. */
export type FileKind = 'photo' | 'document' | 'video' | 'audio' | 'voice' | 'animation' | 'sticker';

/** The type byte the service puts first in a file_id (what makes photo ids start with "AgAC"). */
const TYPE_BYTES: Record<FileKind, number> = { voice: 3, photo: 2, video: 4, document: 5, sticker: 8, audio: 9, animation: 10 };
/** The service's names for the kinds, in "can't use file of type X as Y". */
const TYPE_NAMES: Record<FileKind, string> = {
  photo: 'Photo',
  document: 'Document',
  video: 'Video',
  audio: 'Audio',
  voice: 'VoiceNote',
  animation: 'Animation',
  sticker: 'Sticker',
};
const FOLDERS: Record<FileKind, string> = {
  photo: 'photos',
  document: 'documents',
  video: 'videos',
  audio: 'music',
  voice: 'voice',
  animation: 'animations',
  sticker: 'stickers',
};

/** The owner of the ids minted for files users send: the users' side (bots get ids of their own on delivery). */
export const USERS_SIDE = 0;

/** One stored file: its bytes and what the service knows about them. */
export interface StoredFile extends FileFacts {
  readonly number: number;
  readonly uniqueId: string;
  /** The kind it was first sent as. */
  readonly kind: FileKind;
  readonly data: Buffer;
  /** Set when it was sent by URL: the sandbox fetches nothing, so `data` is a placeholder. */
  readonly url?: string;
  /** The path getFile gives (`photos/file_3.jpg`), for /file/bot<token>/<path>. */
  readonly path: string;
  /** The chats (store chat keys) whose messages show it: who may download it from the client API. */
  readonly chats: Set<string>;
}

/** A file id as the sandbox minted it: the file, whose id it is, and the kind it names the file as. */
export interface MintedId {
  readonly file: StoredFile;
  readonly owner: number;
  readonly kind: FileKind;
}

export class SandboxFiles {
  private readonly files: StoredFile[] = [];
  private readonly byId = new Map<string, MintedId>();
  private readonly idOf = new Map<string, string>();

  /** How many files are stored (nothing to translate while there are none). */
  get size(): number {
    return this.files.length;
  }

  /** Stores `data` as a new file of `kind`; `name` and `mimeType` are what the sender said about it. */
  add(data: Buffer, kind: FileKind, { name, mimeType, url }: { name?: string | undefined; mimeType?: string | undefined; url?: string } = {}): StoredFile {
    const number = this.files.length + 1;
    const facts = describeFile(data, kind, name, mimeType);
    const file: StoredFile = {
      ...facts,
      number,
      uniqueId: `AQAD${randomBytes(9).toString('base64url')}`,
      kind,
      data,
      ...(url !== undefined ? { url } : {}),
      path: `${FOLDERS[kind]}/file_${number}${facts.extension}`,
      chats: new Set(),
    };
    this.files.push(file);
    return file;
  }

  /** The id `owner` (a bot's id, or USERS_SIDE) knows `file` by as `kind`: the same one every time. */
  idFor(owner: number, file: StoredFile, kind: FileKind = file.kind): string {
    const key = `${owner}:${file.number}:${kind}`;
    let id = this.idOf.get(key);
    if (id === undefined) {
      const head = Buffer.from([TYPE_BYTES[kind], 0, 2, 0]);
      const number = Buffer.alloc(4);
      number.writeUInt32BE(file.number);
      id = Buffer.concat([head, number, randomBytes(44), Buffer.from([4])]).toString('base64url');
      this.idOf.set(key, id);
      this.byId.set(id, { file, owner, kind });
    }
    return id;
  }

  /** The file behind any id the sandbox minted, whoever it was minted for. */
  lookup(fileId: string): StoredFile | undefined {
    return this.byId.get(fileId)?.file;
  }

  /** What the sandbox minted `fileId` as, if it did. */
  minted(fileId: string): MintedId | undefined {
    return this.byId.get(fileId);
  }

  /**
   * The file `botId` names by `fileId` to send it as `kind`, with the service's refusals: an id that is not
   * this bot's (another bot's, or none at all) and a photo sent as a document or the other way round.
   */
  forBot(botId: number, fileId: string, kind: FileKind): StoredFile {
    const minted = this.byId.get(fileId);
    if (!minted || minted.owner !== botId) throw badRequest('wrong file identifier/HTTP URL specified');
    if ((minted.kind === 'photo') !== (kind === 'photo')) throw badRequest(`can't use file of type ${TYPE_NAMES[minted.kind]} as ${TYPE_NAMES[kind]}`);
    return minted.file;
  }

  /** The file at `path` (getFile's file_path) when `botId` holds an id for it. */
  byPath(botId: number, path: string): StoredFile | undefined {
    const match = /file_(\d+)(?:\.[A-Za-z0-9]+)?$/.exec(path);
    const file = match ? this.files[Number(match[1]) - 1] : undefined;
    if (!file || file.path !== path) return undefined;
    const known = (Object.keys(TYPE_BYTES) as FileKind[]).some((kind) => this.idOf.has(`${botId}:${file.number}:${kind}`));
    return known ? file : undefined;
  }

  /** Notes that `message` was stored in chat `chatKey` (its files may be downloaded by that chat's members). */
  noteChat(chatKey: string, message: object): void {
    if (this.files.length === 0) return;
    walkFileIds(message, (id) => {
      this.lookup(id)?.chats.add(chatKey);
      return id;
    });
  }

  /**
   * `value` (a Message, an Update, a method's result) as bot `botId` sees it: every file id in it replaced by
   * the bot's own id for that file, as each bot has its own ids on the real service. `value` itself is unchanged.
   */
  viewFor<T>(botId: number, value: T): T {
    if (this.files.length === 0) return value;
    return walkFileIds(structuredClone(value), (id) => {
      const minted = this.byId.get(id);
      return minted ? this.idFor(botId, minted.file, minted.kind) : id;
    });
  }
}

/** Calls `replace` with every `file_id` string in `value` (objects and arrays, in place) and stores what it returns. */
function walkFileIds<T>(value: T, replace: (id: string) => string): T {
  if (Array.isArray(value)) {
    for (const item of value) walkFileIds(item, replace);
  } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const entry = record[key];
      if (key === 'file_id' && typeof entry === 'string') record[key] = replace(entry);
      else if (entry !== null && typeof entry === 'object') walkFileIds(entry, replace);
    }
  }
  return value;
}
