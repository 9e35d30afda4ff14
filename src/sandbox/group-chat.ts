// Messages of a group chat, both directions, and which bots receive them: a bot in privacy mode (the real
// service's default) sees commands for it, mentions of it and replies to its own messages; an administrator
// bot, or one whose privacy mode was switched off with BotMaker's /setprivacy, sees every message.
import type { Chat, Message } from '@grammyjs/types';
import { userAsSender } from './chat-messages.js';
import type { BotRecord, GroupRecord, SandboxStore, SandboxUser } from './store.js';

const COMMAND = /^\/[A-Za-z0-9_]{1,32}(?:@([A-Za-z0-9_]{1,32}))?(?=$|\s)/;

export function groupChat(group: GroupRecord): Chat.GroupChat | Chat.SupergroupChat {
  const chat = { id: group.id, type: group.type, title: group.title, ...(group.topics ? { is_forum: true } : {}) };
  return chat as Chat.GroupChat | Chat.SupergroupChat;
}

/**
 * A user's message in the group, of `content` (see user-content.ts), optionally a reply to one of its messages;
 * `thread` holds the fields of a message in a forum topic (message_thread_id, is_topic_message).
 */
export function storeGroupUserMessage(
  store: SandboxStore,
  group: GroupRecord,
  user: SandboxUser,
  content: Record<string, unknown>,
  replyTo?: Message,
  thread: Record<string, unknown> = {},
): Message {
  return store.appendGroupMessage(group, (messageId, date) =>
    withoutUndefined({
      message_id: messageId,
      from: userAsSender(user),
      chat: groupChat(group),
      date,
      reply_to_message: replyTo,
      ...thread,
      ...content,
    }),
  );
}

/**
 * Privacy mode: `/cmd` and `/cmd@thisbot` reach the bot (`/cmd@otherbot` does not), as do messages that
 * mention `@thisbot` and replies to the bot's own messages; everything else stays unseen.
 */
export function visibleToBot(message: Message, bot: Pick<BotRecord, 'id' | 'username'>): boolean {
  // A photo's or a document's caption counts as its text.
  const text = message.text ?? message.caption ?? '';
  const username = bot.username.toLowerCase();
  const command = COMMAND.exec(text);
  if (command) return command[1] === undefined || command[1].toLowerCase() === username;
  const mentioned = (message.entities ?? message.caption_entities ?? []).some(
    (entity) => entity.type === 'mention' && text.slice(entity.offset + 1, entity.offset + entity.length).toLowerCase() === username,
  );
  return mentioned || message.reply_to_message?.from?.id === bot.id;
}

/** Whether the bot receives every message of the group: as an administrator, or with privacy mode off. */
export function seesEverything(group: GroupRecord, bot: Pick<BotRecord, 'id' | 'privacy'>): boolean {
  return !bot.privacy || group.admins.has(bot.id);
}

/** Queues the user's group message as an update for every bot in the group that may see it. */
export function deliverToGroupBots(store: SandboxStore, group: GroupRecord, message: Message): void {
  for (const bot of store.allBots()) {
    if (group.botIds.has(bot.id) && (seesEverything(group, bot) || visibleToBot(message, bot))) bot.queue.push(message);
  }
}

function withoutUndefined(message: Record<string, unknown>): Message {
  return Object.fromEntries(Object.entries(message).filter(([, value]) => value !== undefined)) as unknown as Message;
}
