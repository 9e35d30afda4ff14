// The file a sending method names, read as the real service reads an InputFile: a part of a multipart body
// (directly, or through "attach://<part>"), a file_id of this bot's, or an HTTP URL (a value with a dot in
// it). The sandbox fetches nothing: a URL becomes a placeholder file that remembers it. Upload limits are the
// service's: photos up to 10 MB, other files up to 50 MB (the body parser refuses bigger parts with 413).
import { badRequest } from './api-failure.js';
import { urlPlaceholder } from './file-facts.js';
import type { FileKind, StoredFile } from './files.js';
import type { MethodContext } from './method-context.js';
import type { Params } from './params.js';

/** The service's upload limits through the Bot API. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

/** A file part of a multipart body, as the body parser hands it over. */
export interface UploadedPart {
  readonly uploaded: true;
  readonly fileName: string | undefined;
  readonly mimeType: string | undefined;
  readonly data: Buffer;
}

export function isUploadedPart(value: unknown): value is UploadedPart {
  return typeof value === 'object' && value !== null && (value as { uploaded?: unknown }).uploaded === true;
}

/**
 * The file named by `value` (a parameter's value or an InputMedia's `media`), sent as `kind`; undefined when it
 * names none (the caller words the service's "There is no photo in the request" or "media not found").
 */
export function inputFile({ store, bot }: MethodContext, params: Params, value: unknown, kind: FileKind): StoredFile | undefined {
  if (isUploadedPart(value)) return storeUpload(store.files, value, kind);
  if (typeof value !== 'string' || value === '') return undefined;
  const attached = /^attach:\/\/(.*)$/s.exec(value);
  if (attached) {
    const part = params[attached[1]!];
    return isUploadedPart(part) ? storeUpload(store.files, part, kind) : undefined;
  }
  // The service reads a value with a dot in it as a URL, anything else as a file_id.
  if (value.includes('.')) return storeUrl(store.files, value, kind);
  return store.files.forBot(bot.id, value, kind);
}

/** Stores an uploaded part after the service's checks (an empty file, a photo over 10 MB). */
export function storeUpload(files: MethodContext['store']['files'], part: UploadedPart, kind: FileKind): StoredFile {
  const size = part.data.length;
  if (size === 0) throw badRequest('file must be non-empty');
  if (kind === 'photo' && size > MAX_PHOTO_BYTES) {
    throw badRequest(`file of size ${size} bytes is too big for a photo; the maximum size is ${MAX_PHOTO_BYTES} bytes`);
  }
  return files.add(part.data, kind, { name: part.fileName, mimeType: part.mimeType });
}

function storeUrl(files: MethodContext['store']['files'], value: string, kind: FileKind): StoredFile {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw badRequest('invalid file HTTP URL specified: Wrong URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('invalid file HTTP URL specified: Unsupported URL protocol');
  return files.add(urlPlaceholder(url.href, kind), kind, { name: lastSegment(url), url: url.href });
}

/** The URL's file name (its last path segment), if it has one. */
function lastSegment(url: URL): string | undefined {
  const segment = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment) || undefined;
  } catch {
    return segment || undefined;
  }
}
