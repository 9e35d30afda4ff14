// What a rule sends besides text: a photo, document, video, audio, voice, animation or sticker (a file next
// to the rules, a URL or a file_id), a location or venue, a contact, or an album, with a caption. The
// compiled form (per language when given so) and its rendering into the send_media action's media for one
// event. Plain data, like every action: where a local file is read and uploaded is delivery's business.
import { resolveLanguage, type LanguageSettings } from './languages.js';
import { render, type RenderValues } from './render.js';
import type { ParseMode } from './reply.js';
import type { Template } from './template.js';

/** The kinds of file a message carries. */
export type FileMediaKind = 'photo' | 'document' | 'video' | 'audio' | 'voice' | 'animation' | 'sticker';
/** The kinds an album holds (photos and videos together; documents or audio only with their own kind). */
export type AlbumKind = 'photo' | 'video' | 'document' | 'audio';

export const FILE_MEDIA_KINDS: readonly FileMediaKind[] = ['photo', 'document', 'video', 'audio', 'voice', 'animation', 'sticker'];

/**
 * Where a file comes from: a file next to the rules (read at load time: its path, its name, its content hash
 * and size: an edited file has a new hash), a URL the service fetches, or a file_id the service gave the bot.
 */
export type MediaSource =
  | { readonly kind: 'file'; readonly path: string; readonly name: string; readonly hash: string; readonly size: number }
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'file_id'; readonly fileId: string };

/**
 * Where a file comes from as compiled: a MediaSource, or a template (`photo: "{{flow.picture}}"`, the file_id a
 * flow step kept) rendered when the media is sent: a URL, else a file_id.
 */
export type CompiledSource = MediaSource | { readonly kind: 'template'; readonly template: Template };

/** One item of an album, as sent. */
export interface AlbumItem {
  readonly kind: AlbumKind;
  readonly source: MediaSource;
  readonly caption?: string;
}

/** What a send_media action sends. */
export type OutgoingMedia =
  | { readonly kind: FileMediaKind; readonly source: MediaSource }
  | { readonly kind: 'location'; readonly latitude: number; readonly longitude: number; readonly title?: string; readonly address?: string }
  | { readonly kind: 'contact'; readonly phoneNumber: string; readonly firstName: string; readonly lastName?: string }
  | { readonly kind: 'album'; readonly items: readonly AlbumItem[] };

/** An album item as compiled: its caption still a template. */
export interface CompiledAlbumItem {
  readonly kind: AlbumKind;
  readonly source: CompiledSource;
  readonly caption: Template | null;
}

/** The media of a rule, a message of a sequence, a flow step or a done branch, as compiled. */
export type CompiledMediaVariant =
  | { readonly kind: FileMediaKind; readonly source: CompiledSource }
  | Extract<OutgoingMedia, { kind: 'location' | 'contact' }>
  | { readonly kind: 'album'; readonly items: readonly CompiledAlbumItem[] };

export interface CompiledMedia {
  /** The media in the default language (or for everyone). */
  readonly media: CompiledMediaVariant;
  /** A file given per language: the media by language, with the settings that pick the user's. */
  readonly byLanguage: { readonly settings: LanguageSettings; readonly media: ReadonlyMap<string, CompiledMediaVariant> } | null;
  /** The caption (per language when given so); null when none. */
  readonly caption: Template | null;
  readonly parseMode?: ParseMode;
}

/** The media and caption to send for one event: the user's language's file, the captions rendered. */
export function renderMedia(compiled: CompiledMedia, values: RenderValues): { media: OutgoingMedia; caption?: string } {
  const language = compiled.byLanguage ? resolveLanguage(compiled.byLanguage.settings, values.message.from, values.vars?.user ?? {}) : undefined;
  const variant = (language !== undefined && compiled.byLanguage?.media.get(language)) || compiled.media;
  const caption = compiled.caption ? render(compiled.caption, values, compiled.parseMode) : undefined;
  if (variant.kind !== 'album') {
    const media = 'source' in variant ? { kind: variant.kind, source: sourceFor(variant.source, values) } : variant;
    return caption ? { media, caption } : { media };
  }
  // The media's own caption goes under the album's first item (as the apps show an album's caption), unless it has its own.
  const items = variant.items.map((item, i): AlbumItem => {
    const text = item.caption ? render(item.caption, values, compiled.parseMode) : i === 0 ? caption : undefined;
    const source = sourceFor(item.source, values);
    return text ? { kind: item.kind, source, caption: text } : { kind: item.kind, source };
  });
  return { media: { kind: 'album', items } };
}

/** The source to send: a template rendered (unescaped) into a URL or, anything else, a file_id. */
function sourceFor(source: CompiledSource, values: RenderValues): MediaSource {
  if (source.kind !== 'template') return source;
  const value = render(source.template, values).trim();
  return classifyMediaValue(value).kind === 'url' ? { kind: 'url', url: value } : { kind: 'file_id', fileId: value };
}

/** How a media value reads: a template ({{…}}), a URL, a file_id (a long run of base64url characters, no dot or slash), or a path. */
export function classifyMediaValue(value: string): { kind: 'template' } | { kind: 'url' } | { kind: 'file_id' } | { kind: 'path' } {
  if (value.includes('{{')) return { kind: 'template' };
  if (/^https?:\/\//i.test(value)) return { kind: 'url' };
  if (/^[A-Za-z0-9_-]{20,}$/.test(value)) return { kind: 'file_id' };
  return { kind: 'path' };
}

/** The kind a file_id names, read from its first bytes as the service writes them (AgAC… a photo), if known. */
export function kindOfFileId(fileId: string): FileMediaKind | undefined {
  const prefixes: Record<string, FileMediaKind> = {
    AgAC: 'photo',
    BQAC: 'document',
    BAAC: 'video',
    CQAC: 'audio',
    AwAC: 'voice',
    CgAC: 'animation',
    CAAC: 'sticker',
  };
  return prefixes[fileId.slice(0, 4)];
}

/** The kind of album item a file name suggests: a picture is a photo, a movie a video, a sound audio, anything else a document. */
export function albumKindOfName(name: string): AlbumKind {
  const extension = /\.([A-Za-z0-9]+)(?:[?#].*)?$/.exec(name)?.[1]?.toLowerCase() ?? '';
  if (['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp'].includes(extension)) return 'photo';
  if (['mp4', 'mov', 'webm', 'm4v', 'mkv'].includes(extension)) return 'video';
  if (['mp3', 'm4a', 'flac', 'wav', 'ogg', 'oga'].includes(extension)) return 'audio';
  return 'document';
}
