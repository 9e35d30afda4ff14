// Builds and stores the Message objects of a private chat, both directions, shaped as the Bot API sends them.
import type { Chat, Message, MessageEntity, User } from '@grammyjs/types';
import { withDetectedEntities } from '../markup/auto-entities.js';
import type { StoredMarkup } from './message-meta.js';
import type { Peer, SandboxStore, SandboxUser } from './store.js';

export function privateChat(user: SandboxUser): Chat.PrivateChat {
  return {
    id: user.id,
    type: 'private',
    first_name: user.first_name,
    ...(user.last_name !== undefined ? { last_name: user.last_name } : {}),
    ...(user.username !== undefined ? { username: user.username } : {}),
  };
}

export function userAsSender(user: SandboxUser): User {
  return {
    id: user.id,
    is_bot: false,
    first_name: user.first_name,
    ...(user.last_name !== undefined ? { last_name: user.last_name } : {}),
    ...(user.username !== undefined ? { username: user.username } : {}),
    ...(user.language_code !== undefined ? { language_code: user.language_code } : {}),
  };
}

export function peerAsSender(peer: Peer): User {
  return { id: peer.id, is_bot: true, first_name: peer.name, username: peer.username };
}

/** A message the user sent to the peer, of `content` (a text with the entities the service detects, a photo…; see user-content.ts). */
export function storeUserMessage(store: SandboxStore, user: SandboxUser, peer: Peer, content: Record<string, unknown>): Message {
  return store.appendMessage(user.id, peer, (messageId, date) => ({
    message_id: messageId,
    from: userAsSender(user),
    chat: privateChat(user),
    date,
    ...content,
  })) as Message;
}

/**
 * A message the peer (bot or assistant) sent to the user; `entities` default to the ones the service detects.
 * An inline keyboard is part of the Message; other markup is kept beside it.
 */
export function storePeerMessage(
  store: SandboxStore,
  user: SandboxUser,
  peer: Peer,
  text: string,
  replyTo?: Message,
  entities: MessageEntity[] = withDetectedEntities(text, []),
  markup?: StoredMarkup,
): Message.TextMessage {
  return store.appendMessage(
    user.id,
    peer,
    (messageId, date) =>
      ({
        message_id: messageId,
        from: peerAsSender(peer),
        chat: privateChat(user),
        date,
        text,
        ...(entities.length > 0 ? { entities } : {}),
        ...(replyTo ? { reply_to_message: replyTo } : {}),
        ...(markup?.kind === 'inline' ? { reply_markup: markup.markup } : {}),
      }) as unknown as Message,
    markup,
  ) as Message.TextMessage;
}
