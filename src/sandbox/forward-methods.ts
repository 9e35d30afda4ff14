// forwardmessage, forwardmessages, copymessage and copymessages, as the real service runs them: the source
// chat must be one the bot can read, a missing message is "message to forward not found" (or "... to copy
// ..."; the plural methods skip missing ones), a service message can be neither forwarded nor copied. A
// forward shows where it came from (forward_origin); a copy is a new message of the same content, with an
// optional new caption and keyboard. Messages of one album stay together (a new media_group_id).
import { randomInt } from 'node:crypto';
import type { Message } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { admitOnce, prepareSending, storeBotMessage, type Sending } from './bot-messages.js';
import { chatMessagesOf, targetChat } from './chat-target.js';
import { captionOf } from './input-entities.js';
import type { MethodContext } from './method-context.js';
import { booleanParam, integerParam, stringParam, type Params } from './params.js';

/** The fields that make a message's content (what a forward or a copy repeats). */
const CONTENT_FIELDS = [
  'text',
  'entities',
  'animation',
  'audio',
  'document',
  'photo',
  'sticker',
  'video',
  'voice',
  'video_note',
  'caption',
  'caption_entities',
  'show_caption_above_media',
  'has_media_spoiler',
  'contact',
  'dice',
  'poll',
  'venue',
  'location',
];
const CAPTIONED = ['animation', 'audio', 'document', 'photo', 'video', 'voice'];
const MAX_IDS = 100;

type Mode = 'forward' | 'copy';

/** forwardmessage: the forwarded Message. */
export function forwardMessage(context: MethodContext, params: Params): Message {
  const [original] = sourceMessages(context, params, 'forward', [messageIdOf(params)], false);
  return repeat(context, prepareSending(context, params, { markup: false }), original!, 'forward', params);
}

/** copymessage: the copy's MessageId. */
export function copyMessage(context: MethodContext, params: Params): { message_id: number } {
  const [original] = sourceMessages(context, params, 'copy', [messageIdOf(params)], false);
  return { message_id: repeat(context, prepareSending(context, params), original!, 'copy', params).message_id };
}

/** forwardmessages: the MessageIds of the forwards, in the order of the messages (missing ones skipped). */
export function forwardMessages(context: MethodContext, params: Params): Array<{ message_id: number }> {
  return repeatMany(context, params, 'forward');
}

/** copymessages: the MessageIds of the copies, in the order of the messages (missing ones skipped). */
export function copyMessages(context: MethodContext, params: Params): Array<{ message_id: number }> {
  return repeatMany(context, params, 'copy');
}

function repeatMany(context: MethodContext, params: Params, mode: Mode): Array<{ message_id: number }> {
  const ids = messageIdsOf(params);
  if (stringParam(params, 'from_chat_id') === undefined) throw badRequest('parameter "from_chat_id" is required');
  const sending = prepareSending(context, { ...params, reply_markup: undefined, reply_parameters: undefined, reply_to_message_id: undefined });
  const originals = sourceMessages(
    context,
    params,
    mode,
    [...new Set(ids)].sort((a, b) => a - b),
    true,
  );
  const albums = new Map<string, string>();
  const options = mode === 'copy' && booleanParam(params, 'remove_caption') ? { caption: '' } : {};
  // The batch counts once against the optional sending limits: it goes whole or not at all.
  if (originals.length > 0) admitOnce(context, sending);
  return originals.map((original) => {
    const album = original.media_group_id;
    if (album !== undefined && !albums.has(album)) albums.set(album, newAlbumId());
    const extras = { ...sending.extras, mediaGroupId: album === undefined ? undefined : albums.get(album) };
    return { message_id: repeat(context, { ...sending, extras }, original, mode, options, false).message_id };
  });
}

/** The messages to forward or copy, after the service's checks; `skipMissing` for the plural methods. */
function sourceMessages(context: MethodContext, params: Params, mode: Mode, ids: number[], skipMissing: boolean): Message[] {
  const { store, bot } = context;
  if (stringParam(params, 'from_chat_id') === undefined || params.from_chat_id === '') throw badRequest('parameter "from_chat_id" is required');
  const notFound = `message to ${mode} not found`;
  const source = targetChat(store, bot, { chat_id: params.from_chat_id }, { write: false });
  const messages = chatMessagesOf(store, source, bot.id);
  const found: Message[] = [];
  for (const id of ids) {
    const message = id > 0 ? messages.find((candidate) => candidate.message_id === id) : undefined;
    if (!message) {
      if (skipMissing) continue;
      throw badRequest(notFound);
    }
    if (!CONTENT_FIELDS.some((field) => (message as unknown as Record<string, unknown>)[field] !== undefined)) {
      throw badRequest(mode === 'copy' ? "message can't be copied" : "message can't be forwarded");
    }
    found.push(message);
  }
  return found;
}

/** Stores the forward or the copy of `original` where `sending` says. */
function repeat(context: MethodContext, sending: Sending, original: Message, mode: Mode, params: Params, count = true): Message {
  const source = original as unknown as Record<string, unknown>;
  const content: Record<string, unknown> = {};
  for (const field of CONTENT_FIELDS) if (source[field] !== undefined) content[field] = structuredClone(source[field]);
  const extras = mode === 'forward' ? { ...sending.extras, forwardedFrom: originOf(original) } : sending.extras;
  if (mode === 'copy' && params.caption !== undefined && CAPTIONED.some((field) => content[field] !== undefined)) {
    delete content.caption;
    delete content.caption_entities;
    delete content.show_caption_above_media;
    Object.assign(content, captionOf(params));
  }
  if (count) admitOnce(context, sending);
  return storeBotMessage(context, sending.target, content, extras);
}

/** forward_origin and the older forward_from / forward_date: a forward of a forward keeps the first origin. */
function originOf(original: Message): { origin: Record<string, unknown>; legacy: Record<string, unknown> } {
  const earlier = original as Message & { forward_origin?: Record<string, unknown>; forward_date?: number; forward_from?: unknown };
  if (earlier.forward_origin) {
    const legacy = { ...(earlier.forward_from ? { forward_from: earlier.forward_from } : {}), forward_date: earlier.forward_date };
    return { origin: earlier.forward_origin, legacy };
  }
  const origin = { type: 'user', sender_user: original.from, date: original.date };
  return { origin, legacy: { forward_from: original.from, forward_date: original.date } };
}

function messageIdOf(params: Params): number {
  const id = integerParam(params, 'message_id') ?? 0;
  return id > 0 ? id : 0;
}

/** message_ids as the service reads them: a JSON array of up to 100 numbers. */
function messageIdsOf(params: Params): number[] {
  const raw = params.message_ids;
  if (raw === undefined || raw === '') throw badRequest('message identifiers are not specified');
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw badRequest("can't parse message_ids JSON object");
    }
  }
  if (!Array.isArray(value)) throw badRequest('expected an Array of message identifiers');
  if (value.length > MAX_IDS) throw badRequest('too many message identifiers specified');
  const ids = value.map((id: unknown) => {
    const number = typeof id === 'string' && /^\s*\d+\s*$/.test(id) ? Number(id) : id;
    if (typeof number !== 'number' || !Number.isInteger(number)) throw badRequest('message identifier must be a Number');
    return number;
  });
  if (ids.length === 0) throw badRequest('message identifiers are not specified');
  return ids;
}

function newAlbumId(): string {
  return String(BigInt(randomInt(1, 2 ** 47)) * 100_000n + BigInt(randomInt(100_000)));
}
