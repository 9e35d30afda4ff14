// sendmediagroup: 1 to 10 photos and videos (which may mix), documents or audio files (each only with its own
// kind) sent as one album: messages sharing a media_group_id, each with its own caption. InputMedia is read
// as the service reads it (`media` a part, "attach://<part>", a file_id or a URL), with its descriptions.
import { randomInt } from 'node:crypto';
import type { Message } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { admitOnce, prepareSending, storeBotMessage } from './bot-messages.js';
import type { FileKind, StoredFile } from './files.js';
import { captionOf } from './input-entities.js';
import { inputFile } from './input-files.js';
import { mediaContent } from './media-content.js';
import { mediaFlags } from './media-methods.js';
import type { MethodContext } from './method-context.js';
import type { Params } from './params.js';

const MAX_ALBUM = 10;
const ALBUM_KINDS = new Set<string>(['photo', 'video', 'audio', 'document']);
/** Kinds an album holds only with others of the same kind. */
const ALONE_KINDS: ReadonlySet<FileKind> = new Set(['audio', 'document']);

export interface AlbumItem {
  readonly kind: FileKind;
  readonly file: StoredFile;
  readonly options: Params;
  readonly caption: Record<string, unknown>;
}

/** sendmediagroup: the album's messages, in order. */
export function sendMediaGroup(context: MethodContext, params: Params): Message[] {
  const items = readAlbum(context, params);
  const sending = prepareSending(context, params, { markup: false });
  const groupId = String(BigInt(randomInt(1, 2 ** 47)) * 100_000n + BigInt(randomInt(100_000)));
  // The album counts once against the optional sending limits: it is sent whole or not at all.
  admitOnce(context, sending);
  return items.map((item) => {
    const fileId = context.store.files.idFor(context.bot.id, item.file, item.kind);
    const content = { ...mediaContent(item.kind, item.file, fileId, item.options), ...item.caption, ...mediaFlags(item.options, item.caption) };
    return storeBotMessage(context, sending.target, content, { ...sending.extras, mediaGroupId: groupId });
  });
}

function readAlbum(context: MethodContext, params: Params): AlbumItem[] {
  const raw = params.media;
  if (raw === undefined || raw === '') throw badRequest('parameter "media" is required');
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw badRequest("can't parse media JSON object");
    }
  }
  if (!Array.isArray(value)) throw badRequest('expected an Array of InputMedia');
  const items = value.map((media: unknown) => {
    try {
      return albumItem(context, params, media);
    } catch (error) {
      // The service names the part of the album it could not read; a refused file keeps its own description.
      if (error instanceof InputMediaProblem) throw badRequest(`can't parse InputMedia: ${error.message}`);
      throw error;
    }
  });
  if (items.length > MAX_ALBUM) throw badRequest('too many messages to send as an album');
  if (items.length === 0) throw badRequest('there are no messages to send');
  const kinds = new Set(items.map((item) => item.kind));
  const alone = kinds.size > 1 ? items.find((item) => ALONE_KINDS.has(item.kind)) : undefined;
  if (alone) throw badRequest(`${alone.kind} can't be mixed with other media types`);
  return items;
}

/** A part of the album the service cannot read: worded after "can't parse InputMedia: ". */
export class InputMediaProblem extends Error {}

/** One InputMedia of an album, read as the service reads it. */
export function albumItem(context: MethodContext, params: Params, media: unknown, forAlbum = true): AlbumItem {
  if (typeof media !== 'object' || media === null || Array.isArray(media)) throw new InputMediaProblem('expected an Object');
  const options = media as Params;
  const caption = captionOf(options);
  if (options.type === undefined) throw new InputMediaProblem(`Can't find field "type"`);
  const type = String(options.type);
  if (type === 'animation' && forAlbum) throw new InputMediaProblem(`type "animation" can't be used in sendMediaGroup`);
  if (!ALBUM_KINDS.has(type) && type !== 'animation') throw new InputMediaProblem(`type "${type}" is unsupported`);
  const kind = type as FileKind;
  const file = inputFile(context, params, options.media, kind);
  if (!file) throw new InputMediaProblem('media not found');
  return { kind, file, options, caption };
}
