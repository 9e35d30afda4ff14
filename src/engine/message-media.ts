// What a user's message carries besides text, as rules read it: its kind (a photo, a document, a location …),
// the file it holds, the values templates show ({{message.caption}}, {{message.file_name}},
// {{message.latitude}} …) and the value a flow step that asks for it keeps.
import type { Message } from '@grammyjs/types';
import type { StateValue } from './state.js';

/** The kinds of message a rule's `event` (or `media: any`) answers, and a flow step may `accept`. */
export type IncomingMediaKind = 'photo' | 'document' | 'video' | 'voice' | 'audio' | 'sticker' | 'location' | 'contact' | 'animation';

export const INCOMING_MEDIA_KINDS: readonly IncomingMediaKind[] = [
  'photo',
  'document',
  'video',
  'voice',
  'audio',
  'sticker',
  'location',
  'contact',
  'animation',
];

/** The message fields templates can show, as `{{message.NAME}}`. */
export const MESSAGE_FIELDS = ['caption', 'file_id', 'file_name', 'file_size', 'mime_type', 'latitude', 'longitude', 'phone_number', 'media'] as const;
export type MessageField = (typeof MESSAGE_FIELDS)[number];

interface FileFields {
  readonly file_id: string;
  readonly file_name?: string;
  readonly file_size?: number;
  readonly mime_type?: string;
}

/** What kind of media a message carries (an animation, which also has a `document`, is an animation; a venue is a location), if any. */
export function mediaKindOf(message: Message): IncomingMediaKind | undefined {
  const fields = message as unknown as Record<string, unknown>;
  for (const kind of ['animation', 'photo', 'video', 'audio', 'voice', 'document', 'sticker', 'contact', 'location'] as const) {
    if (fields[kind] !== undefined) return kind;
  }
  return undefined;
}

/** The file a message carries (a photo's largest size), if any. */
export function fileOf(message: Message): FileFields | undefined {
  const kind = mediaKindOf(message);
  if (kind === undefined || kind === 'location' || kind === 'contact') return undefined;
  const value = (message as unknown as Record<string, unknown>)[kind];
  if (Array.isArray(value)) return value[value.length - 1] as FileFields | undefined;
  return value as FileFields | undefined;
}

/** `{{message.NAME}}`: the field of the message, or '' when it has none. */
export function messageFieldValue(message: Message, field: MessageField): string {
  switch (field) {
    case 'caption':
      return message.caption ?? '';
    case 'media':
      return mediaKindOf(message) ?? '';
    case 'latitude':
      return message.location ? String(message.location.latitude) : '';
    case 'longitude':
      return message.location ? String(message.location.longitude) : '';
    case 'phone_number':
      return message.contact?.phone_number ?? '';
    default: {
      const value = fileOf(message)?.[field];
      return value === undefined ? '' : String(value);
    }
  }
}

/**
 * The value a flow step that accepts `kind` keeps from the message: the file_id of a file, `latitude,longitude`
 * of a location, the phone number of a contact; undefined when the message carries no such thing.
 */
export function acceptedMedia(message: Message, kind: IncomingMediaKind): StateValue | undefined {
  if (mediaKindOf(message) !== kind) return undefined;
  if (kind === 'location') return `${message.location!.latitude},${message.location!.longitude}`;
  if (kind === 'contact') return message.contact!.phone_number;
  return fileOf(message)?.file_id;
}
