// The Message fields of a file sent as each kind, shaped as the real service shapes them: a photo as an
// array of PhotoSize (one size here: the sandbox does not scale images), a document with its name and MIME
// type, an animation also as a document (the service keeps that field for old clients), a video, audio or
// voice with its duration, a sticker with its size and emoji.
import type { FileKind, StoredFile } from './files.js';
import { clampedInteger, stringParam, type Params } from './params.js';

const MAX_DURATION = 24 * 60 * 60;
const MAX_SIDE = 10_000;

/** `file`'s fields in a message sent as `kind`, known to the reader by `fileId`; `options` are the method's (or an InputMedia's) parameters. */
export function mediaContent(kind: FileKind, file: StoredFile, fileId: string, options: Params): Record<string, unknown> {
  const stored = { file_id: fileId, file_unique_id: file.uniqueId, file_size: file.size };
  const named = { ...(file.fileName ? { file_name: file.fileName } : {}), ...(file.mimeType ? { mime_type: file.mimeType } : {}) };
  const duration = clampedInteger(options, 'duration', 0, 0, MAX_DURATION);
  const sides = { width: clampedInteger(options, 'width', 0, 0, MAX_SIDE), height: clampedInteger(options, 'height', 0, 0, MAX_SIDE) };
  switch (kind) {
    case 'photo':
      return { photo: [{ ...stored, width: file.width ?? 0, height: file.height ?? 0 }] };
    case 'document':
      return { document: { ...named, ...stored } };
    case 'video':
      return { video: { duration, ...sides, ...named, ...stored } };
    case 'animation':
      return { animation: { ...named, duration, ...sides, ...stored }, document: { ...named, ...stored } };
    case 'audio': {
      const title = stringParam(options, 'title');
      const performer = stringParam(options, 'performer');
      return { audio: { duration, ...named, ...(title ? { title } : {}), ...(performer ? { performer } : {}), ...stored } };
    }
    case 'voice':
      return { voice: { duration, ...(file.mimeType ? { mime_type: file.mimeType } : {}), ...stored } };
    case 'sticker':
      return { sticker: stickerFields(file, stringParam(options, 'emoji'), stored) };
  }
}

function stickerFields(file: StoredFile, emoji: string | undefined, stored: Record<string, unknown>): Record<string, unknown> {
  return {
    width: file.width ?? 512,
    height: file.height ?? 512,
    ...(emoji ? { emoji } : {}),
    is_animated: file.mimeType === 'application/x-tgsticker',
    is_video: file.mimeType === 'video/webm',
    type: 'regular',
    ...stored,
  };
}

/** The kind of file a message carries, with its Message field, or undefined for a message without one. */
export function fileKindOf(message: Record<string, unknown>): FileKind | undefined {
  // An animation message also has a `document`: the animation decides.
  for (const kind of ['photo', 'animation', 'video', 'audio', 'voice', 'sticker', 'document'] as const) if (message[kind] !== undefined) return kind;
  return undefined;
}

/** The file id of the file a message carries (for a photo, its largest size). */
export function fileIdOf(message: Record<string, unknown>, kind: FileKind): string | undefined {
  const value = message[kind];
  if (Array.isArray(value)) return (value[value.length - 1] as { file_id?: string } | undefined)?.file_id;
  return (value as { file_id?: string } | undefined)?.file_id;
}
