// What a user sends through the client API (POST /client/send), as the Message fields it becomes: a text, a
// photo or a document given as base64 (`{"data", "file_name"?}`) with an optional caption, a location, or an
// album of photos and documents. Files are stored once; the ids in the messages are the users' side's, and
// each bot sees its own ids for them (see files.ts). Entities are the ones the service detects.
import type { MessageEntity } from '@grammyjs/types';
import { withDetectedEntities } from '../markup/auto-entities.js';
import { badRequest } from './api-failure.js';
import { USERS_SIDE, type FileKind, type SandboxFiles } from './files.js';
import { MAX_PHOTO_BYTES } from './input-files.js';
import { mediaContent } from './media-content.js';
import { validLocation } from './media-methods.js';
import { characterCount, commandEntities } from './text-entities.js';
import { MAX_CAPTION_LENGTH } from './input-entities.js';

/** The Message fields of one message a user sends. */
export type UserContent = Record<string, unknown>;

/** A text as the user's message: with the entities the service detects (a leading command, links, mentions…). */
export function textContent(text: string): UserContent {
  const entities = detected(text);
  return entities.length > 0 ? { text, entities } : { text };
}

/**
 * The messages a /client/send body asks for: one for a text, a photo, a document or a location; one per item
 * for an `album` (which share a media_group_id). A bad body is a 400 saying what to send.
 */
export function userContents(files: SandboxFiles, body: Record<string, unknown>): UserContent[] {
  const caption = captionText(body);
  if (body.album !== undefined) return albumContents(files, body.album, caption);
  if (body.photo !== undefined) return [{ ...fileContent(files, body.photo, 'photo'), ...captionFields(caption) }];
  if (body.document !== undefined) return [{ ...fileContent(files, body.document, 'document'), ...captionFields(caption) }];
  if (body.location !== undefined) return [{ location: readLocation(body.location) }];
  const text = body.text;
  if (typeof text !== 'string' || text.trim().length === 0) {
    throw badRequest('text must be a non-empty string (or send "photo", "document", "location" or "album")');
  }
  if (characterCount(text) > 4096) throw badRequest('text must be at most 4096 characters');
  return [textContent(text)];
}

/** The caption of a photo or document: `caption`, else a `text` given beside the file. */
function captionText(body: Record<string, unknown>): string | undefined {
  const value = body.caption ?? (body.photo !== undefined || body.document !== undefined || body.album !== undefined ? body.text : undefined);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest('caption must be a string');
  if (characterCount(value) > MAX_CAPTION_LENGTH) throw badRequest(`caption must be at most ${MAX_CAPTION_LENGTH} characters`);
  return value === '' ? undefined : value;
}

function captionFields(caption: string | undefined): UserContent {
  if (caption === undefined) return {};
  const entities = detected(caption);
  return entities.length > 0 ? { caption, caption_entities: entities } : { caption };
}

function albumContents(files: SandboxFiles, album: unknown, caption: string | undefined): UserContent[] {
  if (!Array.isArray(album) || album.length < 2 || album.length > 10) {
    throw badRequest('album must be a list of 2 to 10 items like {"photo": {"data": "<base64>"}} or {"document": {"data": "<base64>", "file_name": "a.pdf"}}');
  }
  const items = album.map((item: unknown, index) => {
    const entry = (item ?? {}) as Record<string, unknown>;
    const kind: FileKind | undefined = entry.photo !== undefined ? 'photo' : entry.document !== undefined ? 'document' : undefined;
    if (!kind) throw badRequest(`album item ${index + 1} must have a "photo" or a "document"`);
    return { kind, content: fileContent(files, entry[kind], kind) };
  });
  if (new Set(items.map((item) => item.kind)).size > 1) throw badRequest('an album holds photos or documents, not both');
  // The caption goes under the first item, as the apps send an album's caption.
  return items.map((item, index) => (index === 0 ? { ...item.content, ...captionFields(caption) } : item.content));
}

/** A photo or document given as `{"data": "<base64>", "file_name"?, "mime_type"?}`, stored as a file. */
function fileContent(files: SandboxFiles, value: unknown, kind: 'photo' | 'document'): UserContent {
  const example = kind === 'photo' ? '{"data": "<base64>", "file_name": "damage.jpg"}' : '{"data": "<base64>", "file_name": "invoice.pdf"}';
  if (typeof value !== 'object' || value === null) throw badRequest(`${kind} must be an object like ${example}`);
  const given = value as Record<string, unknown>;
  if (typeof given.data !== 'string' || given.data === '') throw badRequest(`${kind}.data must be the file's bytes in base64, as in ${example}`);
  const data = Buffer.from(given.data, 'base64');
  if (data.length === 0) throw badRequest(`${kind}.data holds no bytes`);
  const name = given.file_name;
  if (name !== undefined && (typeof name !== 'string' || name === '')) throw badRequest(`${kind}.file_name must be a non-empty string`);
  if (kind === 'document' && name === undefined) throw badRequest(`document.file_name is required, as in ${example}`);
  if (kind === 'photo' && data.length > MAX_PHOTO_BYTES) throw badRequest('a photo is at most 10 MB: send a bigger picture as a "document"');
  const mimeType = typeof given.mime_type === 'string' ? given.mime_type : undefined;
  let file;
  try {
    file = files.add(data, kind, { name: name as string | undefined, mimeType });
  } catch {
    throw badRequest('photo.data is not an image the service can show (JPEG, PNG, GIF, WebP or BMP): send it as a "document"');
  }
  return mediaContent(kind, file, files.idFor(USERS_SIDE, file, kind), {});
}

function readLocation(value: unknown): { latitude: number; longitude: number } {
  const given = (value ?? {}) as Record<string, unknown>;
  const location = { latitude: given.latitude, longitude: given.longitude };
  if (typeof location.latitude !== 'number' || typeof location.longitude !== 'number' || !validLocation(location as { latitude: number; longitude: number })) {
    throw badRequest('location must be {"latitude": -90..90, "longitude": -180..180}');
  }
  return location as { latitude: number; longitude: number };
}

function detected(text: string): MessageEntity[] {
  return withDetectedEntities(text, commandEntities(text) ?? []);
}
