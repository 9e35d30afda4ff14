// editmessagecaption and editmessagemedia on the bot's own messages, with the real service's checks: a
// caption only on a message that can have one, new media only in place of a photo, video, animation, audio or
// document (an album keeps its kinds compatible), and "message is not modified" for a caption that changes nothing.
import type { Message } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { applyEdit, editable, inlineMarkup, NOT_MODIFIED, sameKeyboard } from './edit-methods.js';
import { captionOf } from './input-entities.js';
import { mediaContent, fileKindOf } from './media-content.js';
import { albumItem, InputMediaProblem } from './media-group.js';
import { mediaFlags } from './media-methods.js';
import type { MethodContext } from './method-context.js';
import type { Params } from './params.js';

const CAPTIONED = new Set(['animation', 'audio', 'document', 'photo', 'video', 'voice']);
const REPLACEABLE = new Set(['animation', 'audio', 'document', 'photo', 'video']);
const ALONE_IN_ALBUM = new Set(['audio', 'document']);

/** editmessagecaption: a new caption (or none) and optionally a new inline keyboard. */
export function editMessageCaption(context: MethodContext, params: Params): Message {
  const keyboard = inlineMarkup(params);
  const caption = captionOf(params);
  const located = editable(context, params);
  const current = located.message as unknown as Record<string, unknown>;
  const kind = fileKindOf(current);
  if (!kind || !CAPTIONED.has(kind)) throw badRequest('there is no caption in the message to edit');
  const sameCaption = current.caption === caption.caption && JSON.stringify(current.caption_entities ?? []) === JSON.stringify(caption.caption_entities ?? []);
  if (sameCaption && sameKeyboard(located.message.reply_markup, keyboard)) throw badRequest(NOT_MODIFIED);
  const changes = { caption: caption.caption, caption_entities: caption.caption_entities, ...aboveMedia(params, caption) };
  return applyEdit(context, located, changes, keyboard);
}

/** editmessagemedia: the message's photo, video, animation, audio or document replaced by the InputMedia in `media`. */
export function editMessageMedia(context: MethodContext, params: Params): Message {
  const keyboard = inlineMarkup(params);
  const item = readInputMedia(context, params);
  const located = editable(context, params);
  const current = located.message as unknown as Record<string, unknown>;
  const oldKind = fileKindOf(current);
  if (!oldKind || !REPLACEABLE.has(oldKind)) throw badRequest("message media can't be edited");
  if (current.media_group_id !== undefined && oldKind !== item.kind) {
    if (item.kind === 'animation') throw badRequest("message content type can't be used in an album");
    if (ALONE_IN_ALBUM.has(oldKind) || ALONE_IN_ALBUM.has(item.kind)) throw badRequest("can't change media type in the album");
  }
  const fileId = context.store.files.idFor(context.bot.id, item.file, item.kind);
  const changes: Record<string, unknown> = { [oldKind]: undefined, document: undefined, caption: undefined, caption_entities: undefined };
  changes.show_caption_above_media = undefined;
  changes.has_media_spoiler = undefined;
  Object.assign(changes, mediaContent(item.kind, item.file, fileId, item.options), item.caption, mediaFlags(item.options, item.caption));
  return applyEdit(context, located, changes, keyboard);
}

function readInputMedia(context: MethodContext, params: Params): ReturnType<typeof albumItem> {
  const raw = params.media;
  if (raw === undefined || raw === '') throw badRequest('parameter "media" is required');
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw badRequest("can't parse input media JSON object");
    }
  }
  try {
    return albumItem(context, params, value, false);
  } catch (error) {
    if (error instanceof InputMediaProblem) throw badRequest(`can't parse InputMedia: ${error.message}`);
    throw error;
  }
}

function aboveMedia(params: Params, caption: { caption?: string }): { show_caption_above_media: true | undefined } {
  return { show_caption_above_media: mediaFlags(params, caption).show_caption_above_media };
}
