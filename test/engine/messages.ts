// Builds Telegram-shaped messages for the engine tests.
import type { Message, MessageEntity } from '@grammyjs/types';

export interface MessageOptions {
  chatType?: 'private' | 'group' | 'supergroup' | 'channel';
  chatId?: number;
  firstName?: string;
  lastName?: string;
  username?: string;
  entities?: MessageEntity[];
  noUser?: boolean;
}

export function message(text: string | undefined, options: MessageOptions = {}): Message {
  const chatType = options.chatType ?? 'private';
  const chatId = options.chatId ?? (chatType === 'private' ? 42 : -100);
  const chat = chatType === 'private' ? { id: chatId, type: chatType, first_name: 'Ada' } : { id: chatId, type: chatType, title: 'The Group' };
  const from = {
    id: 42,
    is_bot: false,
    first_name: options.firstName ?? 'Ada',
    ...(options.lastName !== undefined ? { last_name: options.lastName } : {}),
    ...(options.username !== undefined ? { username: options.username } : {}),
  };
  return {
    message_id: 7,
    date: 1_700_000_000,
    chat,
    ...(options.noUser ? {} : { from }),
    ...(text !== undefined ? { text } : {}),
    ...(options.entities ? { entities: options.entities } : {}),
  } as Message;
}
