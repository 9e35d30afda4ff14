// sendphoto, senddocument, sendvideo, sendaudio, sendvoice, sendanimation, sendsticker, sendlocation,
// sendvenue and sendcontact, with the real service's checks and descriptions, in its order: the file (or the
// place, the contact), then the caption, then the chat and the message replied to.
import type { Message } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { prepareSending, sendContent } from './bot-messages.js';
import type { FileKind } from './files.js';
import { captionOf } from './input-entities.js';
import { inputFile } from './input-files.js';
import { mediaContent } from './media-content.js';
import type { MethodContext } from './method-context.js';
import { booleanParam, integerParam, stringParam, type Params } from './params.js';

const NOUNS: Record<FileKind, string> = {
  photo: 'photo',
  document: 'document',
  video: 'video',
  audio: 'audio',
  voice: 'voice',
  animation: 'animation',
  sticker: 'sticker',
};

/** The method that sends a file as `kind` (sendphoto for 'photo', …); stickers take no caption. */
export function fileSender(kind: FileKind): (context: MethodContext, params: Params) => Message {
  return (context, params) => {
    const file = inputFile(context, params, params[kind], kind);
    if (!file) throw badRequest(`there is no ${NOUNS[kind]} in the request`);
    const caption = kind === 'sticker' ? {} : captionOf(params);
    const sending = prepareSending(context, params);
    const fileId = context.store.files.idFor(context.bot.id, file, kind);
    return sendContent(context, sending, { ...mediaContent(kind, file, fileId, params), ...caption, ...mediaFlags(params, caption) });
  };
}

/** show_caption_above_media (with a caption) and has_spoiler, as the Message shows them. */
export function mediaFlags(params: Params, caption: { caption?: string }): Record<string, true> {
  return {
    ...(caption.caption !== undefined && booleanParam(params, 'show_caption_above_media') ? { show_caption_above_media: true } : {}),
    ...(booleanParam(params, 'has_spoiler') ? { has_media_spoiler: true } : {}),
  };
}

/** sendlocation: a point, or a live location with `live_period` (60 s to 24 h, or 0x7FFFFFFF for "until stopped"). */
export function sendLocation(context: MethodContext, params: Params): Message {
  const location = readLocation(params);
  const livePeriod = integerParam(params, 'live_period') ?? 0;
  if (livePeriod !== 0 && livePeriod !== 0x7fffffff && (livePeriod < 60 || livePeriod > 86_400)) throw badRequest('wrong live location period specified');
  if (!validLocation(location)) throw badRequest(livePeriod !== 0 ? 'invalid live location specified' : 'invalid location specified');
  const sending = prepareSending(context, params);
  return sendContent(context, sending, { location: livePeriod !== 0 ? { ...location, live_period: livePeriod } : location });
}

/** sendvenue: a titled place with an address (both may be empty, as the service allows). */
export function sendVenue(context: MethodContext, params: Params): Message {
  const location = readLocation(params);
  if (!validLocation(location)) throw badRequest('wrong venue location specified');
  const venue: Record<string, unknown> = { location, title: stringParam(params, 'title') ?? '', address: stringParam(params, 'address') ?? '' };
  for (const field of ['foursquare_id', 'foursquare_type', 'google_place_id', 'google_place_type']) {
    const value = stringParam(params, field);
    if (value) venue[field] = value;
  }
  const sending = prepareSending(context, params);
  return sendContent(context, sending, { location, venue });
}

/** sendcontact: a phone number and a first name are required. */
export function sendContact(context: MethodContext, params: Params): Message {
  const contact: Record<string, unknown> = { phone_number: required(params, 'phone_number'), first_name: required(params, 'first_name') };
  for (const field of ['last_name', 'vcard']) {
    const value = stringParam(params, field);
    if (value) contact[field] = value;
  }
  const sending = prepareSending(context, params);
  return sendContent(context, sending, { contact });
}

/** latitude and longitude as the service reads them: required, and a number (anything else reads as 0). */
export function readLocation(params: Params): { latitude: number; longitude: number } {
  const latitude = (stringParam(params, 'latitude') ?? '').trim();
  if (latitude === '') throw badRequest('latitude is empty');
  const longitude = (stringParam(params, 'longitude') ?? '').trim();
  if (longitude === '') throw badRequest('longitude is empty');
  return { latitude: Number(latitude) || 0, longitude: Number(longitude) || 0 };
}

export function validLocation({ latitude, longitude }: { latitude: number; longitude: number }): boolean {
  return Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
}

function required(params: Params, name: string): string {
  const value = stringParam(params, name) ?? '';
  if (value === '') throw badRequest(`parameter "${name}" is required`);
  return value;
}
