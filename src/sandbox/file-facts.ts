// What the sandbox tells about a file's bytes, as the service's objects show it: the name and MIME type
// (from the name the sender gave, else the kind's usual type), a photo's or sticker's width and height (read
// from the image header; bytes that are no image are refused as the service refuses them), and the file
// extension of its path. Also the placeholder bytes of a file sent by URL, which the sandbox never fetches.
import { extname } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { imageSize } from 'image-size';
import { badRequest } from './api-failure.js';
import type { FileKind } from './files.js';

export interface FileFacts {
  readonly fileName?: string;
  readonly mimeType?: string;
  readonly size: number;
  readonly width?: number;
  readonly height?: number;
  /** The extension of the file's path (with the dot), or ''. */
  readonly extension: string;
}

const MIME_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.wav': 'audio/x-wav',
  '.tgs': 'application/x-tgsticker',
};

/** The usual type of a kind when the name says nothing (photos have no MIME type in the Bot API). */
const DEFAULT_TYPES: Partial<Record<FileKind, string>> = {
  video: 'video/mp4',
  animation: 'video/mp4',
  audio: 'audio/mpeg',
  voice: 'audio/ogg',
  sticker: 'image/webp',
};

const IMAGE_EXTENSIONS: Record<string, string> = { jpg: '.jpg', png: '.png', gif: '.gif', webp: '.webp', bmp: '.bmp', tiff: '.tif' };

/** The MIME type of a file name by its extension, if known. */
export function mimeTypeOf(name: string): string | undefined {
  return MIME_TYPES[extname(name).toLowerCase()];
}

/** What the service shows about `data` sent as `kind`; a photo that is no image is refused (IMAGE_PROCESS_FAILED). */
export function describeFile(data: Buffer, kind: FileKind, name: string | undefined, mimeType: string | undefined): FileFacts {
  const byName = name ? mimeTypeOf(name) : undefined;
  const given = mimeType && mimeType !== 'application/octet-stream' ? mimeType : undefined;
  const type = kind === 'photo' ? undefined : (byName ?? given ?? DEFAULT_TYPES[kind] ?? 'application/octet-stream');
  const facts = { size: data.length, ...(name ? { fileName: name } : {}), ...(type ? { mimeType: type } : {}) };
  if (kind !== 'photo' && kind !== 'sticker') return { ...facts, extension: name ? extname(name).toLowerCase() : '' };
  const image = imageDimensions(data);
  // An animated (.tgs) or video (.webm) sticker is no image; a photo must be one.
  if (!image && kind === 'sticker') return { ...facts, extension: name ? extname(name).toLowerCase() : '' };
  if (!image) throw badRequest('IMAGE_PROCESS_FAILED');
  return { ...facts, width: image.width, height: image.height, extension: IMAGE_EXTENSIONS[image.type] ?? '' };
}

function imageDimensions(data: Buffer): { width: number; height: number; type: string } | undefined {
  try {
    const { width, height, type } = imageSize(data);
    return width && height ? { width, height, type: type ?? '' } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a file sent by URL holds in the sandbox, which fetches nothing: for photos and stickers a plain grey
 * 320×240 PNG, for anything else a short text naming the URL.
 */
export function urlPlaceholder(url: string, kind: FileKind): Buffer {
  if (kind === 'photo' || kind === 'sticker') return greyPng(320, 240);
  return Buffer.from(`The sandbox does not fetch files from the internet. This file was sent by URL:\n${url}\n`, 'utf8');
}

function greyPng(width: number, height: number): Buffer {
  // One filter byte (none) and three grey bytes per pixel in each row.
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0xc8)]);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const chunk = (type: string, body: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}
