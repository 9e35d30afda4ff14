// Compiles the media of a rule, a message of a sequence, a flow step or a done branch (`photo`, `document`,
// `video`, `audio`, `voice`, `animation`, `sticker`, `location`, `contact`, `album`, with `caption`), with the
// service's refusals turned into check errors: a file that is missing or over its size limit (photos 10 MB,
// other files 50 MB), a caption over 1024 characters or with markup the service cannot parse, an album whose
// kinds the service does not mix, a caption on what cannot carry one. Files are looked up through
// `MediaLookup`: the rule loader reads them (hash and size) before compiling, so compiling stays pure.
import { markupProblem } from './compile-actions.js';
import { allTranslations, compileText, isPerLanguage, type TextSource } from './languages.js';
import {
  albumKindOfName,
  classifyMediaValue,
  FILE_MEDIA_KINDS,
  kindOfFileId,
  type AlbumKind,
  type CompiledAlbumItem,
  type CompiledMedia,
  type CompiledMediaVariant,
  type FileMediaKind,
  type MediaSource,
  type CompiledSource,
} from './media.js';
import type { ParseMode } from './reply.js';
import type { TemplateContext } from './template.js';

/** The service's limits on what a bot sends. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
export const MAX_CAPTION_LENGTH = 1024;

/** A file or URL or file_id as the loader found it, or why it cannot be sent. */
export type MediaLookup = (value: string) => MediaSource | { readonly problem: string };

type FileValue = string | { readonly [language: string]: string | undefined };
type AlbumEntry =
  string | { readonly photo?: string; readonly video?: string; readonly document?: string; readonly audio?: string; readonly caption?: TextSource };

/** The media keys of a rule, a message of a sequence, a flow step or a done branch. */
export interface MediaSite {
  readonly photo?: FileValue;
  readonly document?: FileValue;
  readonly video?: FileValue;
  readonly audio?: FileValue;
  readonly voice?: FileValue;
  readonly animation?: FileValue;
  readonly sticker?: FileValue;
  readonly location?: { readonly latitude: number; readonly longitude: number; readonly title?: string; readonly address?: string };
  readonly contact?: { readonly phone_number: string; readonly first_name: string; readonly last_name?: string };
  readonly album?: readonly AlbumEntry[];
  readonly caption?: TextSource;
}

/** The keys that give a message its media. */
export const MEDIA_KEYS = [...FILE_MEDIA_KINDS, 'location', 'contact', 'album'] as const;
const NO_CAPTION = new Set(['sticker', 'location', 'contact']);

/** Where the media is compiled: its name for messages, where problems go, how files are found. */
export interface MediaCompileSite {
  readonly name: string;
  readonly report: (path: (string | number)[], message: string, severity?: 'error' | 'warning') => void;
  readonly lookup: MediaLookup;
  readonly parseMode?: ParseMode | undefined;
}

/** The lookup without a loader (rules compiled from memory): paths are taken as given, unread. */
export const UNREAD_MEDIA: MediaLookup = (value) => {
  const kind = classifyMediaValue(value).kind;
  if (kind === 'template') return { problem: `${value} is a template: it is compiled, not looked up` };
  if (kind === 'url') return { kind: 'url', url: value };
  if (kind === 'file_id') return { kind: 'file_id', fileId: value };
  return { kind: 'file', path: value, name: value.split(/[\\/]/).pop() ?? value, hash: `unread:${value}`, size: 0 };
};

/** Whether the site names any media (or a caption, which needs one). */
export function hasMedia(site: MediaSite): boolean {
  return MEDIA_KEYS.some((key) => site[key] !== undefined) || site.caption !== undefined;
}

/** The site's media: null when it has none, undefined when it cannot be compiled (reported). */
export function compileMedia(site: MediaSite, context: TemplateContext, where: MediaCompileSite): CompiledMedia | null | undefined {
  const keys = MEDIA_KEYS.filter((key) => site[key] !== undefined);
  if (keys.length === 0) {
    if (site.caption !== undefined)
      where.report(
        ['caption'],
        `the caption of ${where.name} goes under a photo, document, video, audio, voice or animation: add one, or write the text as reply`,
      );
    return site.caption === undefined ? null : undefined;
  }
  if (keys.length > 1) {
    where.report([keys[1]!], `${where.name} has both ${keys[0]} and ${keys[1]}: a message carries one of them (use messages: [...] to send several)`);
    return undefined;
  }
  const key = keys[0]!;
  if (site.caption !== undefined && NO_CAPTION.has(key)) {
    where.report(['caption'], `a ${key} has no caption (the service shows none under it): remove caption from ${where.name}, or send the text as reply`);
    return undefined;
  }
  const caption = compileCaption(site.caption, context, where);
  if (caption === undefined) return undefined;
  const variants = compileVariants(site, key, context, where);
  if (!variants) return undefined;
  return Object.freeze({ ...variants, caption, ...(where.parseMode ? { parseMode: where.parseMode } : {}) });
}

function compileVariants(
  site: MediaSite,
  key: (typeof MEDIA_KEYS)[number],
  context: TemplateContext,
  where: MediaCompileSite,
): Pick<CompiledMedia, 'media' | 'byLanguage'> | undefined {
  if (key === 'location') {
    const location = site.location!;
    if (location.address !== undefined && location.title === undefined)
      where.report(['location', 'address'], `the address of ${where.name}'s location shows only with a title (a venue): add title`, 'warning');
    return { media: { kind: 'location', ...location }, byLanguage: null };
  }
  if (key === 'contact') {
    const { phone_number: phoneNumber, first_name: firstName, last_name: lastName } = site.contact!;
    return { media: { kind: 'contact', phoneNumber, firstName, ...(lastName !== undefined ? { lastName } : {}) }, byLanguage: null };
  }
  if (key === 'album') {
    const items = compileAlbum(site.album!, context, where);
    return items ? { media: { kind: 'album', items }, byLanguage: null } : undefined;
  }
  return compileFileValue(site[key]!, key, context, where);
}

/** A file given once or per language (which needs the `languages` block, its default language included). */
function compileFileValue(
  value: FileValue,
  kind: FileMediaKind,
  context: TemplateContext,
  where: MediaCompileSite,
): Pick<CompiledMedia, 'media' | 'byLanguage'> | undefined {
  if (!isPerLanguage(value)) {
    const source = fileSource(value, kind, [kind], where, context);
    return source ? { media: { kind, source }, byLanguage: null } : undefined;
  }
  const languages = context.languages;
  if (!languages) {
    where.report(
      [kind],
      `the ${kind} of ${where.name} is given per language, but no file declares the languages: add languages: { default: en, supported: [en, de] }`,
    );
    return undefined;
  }
  const media = new Map<string, CompiledMediaVariant>();
  let ok = true;
  for (const [language, file] of Object.entries(value)) {
    if (file === undefined) continue;
    if (!languages.supported.includes(language)) {
      where.report(
        [kind, language],
        `the ${kind} of ${where.name} has a file for '${language}', which is not among the supported languages (${languages.supported.join(', ')})`,
      );
      ok = false;
      continue;
    }
    const source = fileSource(file, kind, [kind, language], where, context);
    if (source) media.set(language, { kind, source });
    else ok = false;
  }
  const fallback = media.get(languages.default);
  if (!fallback && ok)
    where.report([kind], `the ${kind} of ${where.name} has no file in the default language '${languages.default}', which every other language falls back to`);
  if (!ok || !fallback) return undefined;
  return { media: fallback, byLanguage: { settings: languages, media } };
}

/** Looks a file up and checks it against the service's limit for `kind`; a template is compiled, to be filled in when sent. */
function fileSource(
  value: string,
  kind: FileMediaKind,
  path: (string | number)[],
  where: MediaCompileSite,
  context: TemplateContext,
): CompiledSource | undefined {
  if (classifyMediaValue(value).kind === 'template') {
    const template = compileText(value, context, `the ${kind} of ${where.name}`, {
      error: (at, message) => where.report([...path, ...at], message),
      warning: (at, message) => where.report([...path, ...at], message, 'warning'),
    });
    return template ? { kind: 'template', template } : undefined;
  }
  const found = where.lookup(value);
  if ('problem' in found) {
    where.report(path, `the ${kind} of ${where.name}: ${found.problem}`);
    return undefined;
  }
  const limit = kind === 'photo' ? MAX_PHOTO_BYTES : MAX_FILE_BYTES;
  if (found.kind === 'file' && found.size > limit) {
    where.report(
      path,
      `the ${kind} ${value} of ${where.name} is ${megabytes(found.size)}; the service takes ${kind === 'photo' ? 'photos' : 'files'} of at most ${megabytes(limit)}${kind === 'photo' ? ' (send it as a document)' : ''}`,
    );
    return undefined;
  }
  if (found.kind === 'file_id' && kind !== 'sticker') {
    const named = kindOfFileId(found.fileId);
    if (named !== undefined && (named === 'photo') !== (kind === 'photo'))
      where.report(path, `the file_id given as the ${kind} of ${where.name} is a ${named}'s: the service refuses it ("can't use file of type …")`);
  }
  return found;
}

function compileAlbum(entries: readonly AlbumEntry[], context: TemplateContext, where: MediaCompileSite): CompiledAlbumItem[] | undefined {
  const items: CompiledAlbumItem[] = [];
  let ok = true;
  for (const [i, entry] of entries.entries()) {
    const item = albumEntry(entry, i, context, where);
    if (item) items.push(item);
    else ok = false;
  }
  if (!ok) return undefined;
  const kinds = new Set(items.map((item) => item.kind));
  const alone = (['document', 'audio'] as const).find((kind) => kinds.has(kind));
  if (kinds.size > 1 && alone) {
    where.report(
      ['album'],
      `the album of ${where.name} mixes ${[...kinds].join(', ')}: the service sends ${alone === 'document' ? 'documents' : 'audio files'} only in an album of their own kind`,
    );
    return undefined;
  }
  return items;
}

function albumEntry(entry: AlbumEntry, i: number, context: TemplateContext, where: MediaCompileSite): CompiledAlbumItem | undefined {
  const path = ['album', i];
  let kind: AlbumKind;
  let value: string;
  if (typeof entry === 'string') {
    value = entry;
    const byId = classifyMediaValue(entry).kind === 'file_id' ? kindOfFileId(entry) : undefined;
    if (classifyMediaValue(entry).kind === 'file_id' && (byId === undefined || !['photo', 'video', 'document', 'audio'].includes(byId))) {
      where.report(path, `album item ${i + 1} of ${where.name} is a file_id of unknown kind: write it as { photo: … } or { video: … }`);
      return undefined;
    }
    kind = (byId as AlbumKind | undefined) ?? albumKindOfName(entry);
  } else {
    const kinds = (['photo', 'video', 'document', 'audio'] as const).filter((k) => entry[k] !== undefined);
    if (kinds.length !== 1) {
      where.report(path, `album item ${i + 1} of ${where.name} needs exactly one of photo, video, document, audio`);
      return undefined;
    }
    kind = kinds[0]!;
    value = entry[kind]!;
  }
  const source = fileSource(value, kind, typeof entry === 'string' ? path : [...path, kind], where, context);
  const captionSource = typeof entry === 'string' ? undefined : entry.caption;
  const caption = compileCaption(captionSource, context, { ...where, report: (at, message, severity) => where.report([...path, ...at], message, severity) });
  if (!source || caption === undefined) return undefined;
  return { kind, source, caption };
}

/** A caption: a template (per language when given so), at most 1024 characters and markup the service parses. */
function compileCaption(source: TextSource | undefined, context: TemplateContext, where: MediaCompileSite): CompiledMedia['caption'] | undefined {
  if (source === undefined) return null;
  const template = compileText(source, context, `the caption of ${where.name}`, {
    error: (at, message) => where.report(['caption', ...at], message),
    warning: (at, message) => where.report(['caption', ...at], message, 'warning'),
  });
  if (!template) return undefined;
  let ok = true;
  for (const text of allTranslations(template)) {
    const length = [...text.source].length;
    if (text.isStatic && length > MAX_CAPTION_LENGTH) {
      where.report(['caption'], `the caption of ${where.name} is ${length} characters; the service takes at most ${MAX_CAPTION_LENGTH} under a file`);
      ok = false;
    }
    const problem = where.parseMode ? markupProblem(text, where.parseMode) : undefined;
    if (problem !== undefined) {
      where.report(['caption'], `the service would refuse the caption of ${where.name} (parse_mode ${where.parseMode}): can't parse entities: ${problem}`);
      ok = false;
    }
  }
  return ok ? template : undefined;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}
