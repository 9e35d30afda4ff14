// Forum topics of a supergroup with topics on (`is_forum`), as the real service keeps them: a topic's
// message_thread_id is the id of its forum_topic_created service message; every message in a topic carries
// `message_thread_id` and `is_topic_message`, and one that replies to nothing replies to that service message;
// a send without a thread lands in General (no message_thread_id). createforumtopic, editforumtopic,
// closeforumtopic, reopenforumtopic and deleteforumtopic need an administrator with can_manage_topics (or the
// group's creator); each posts its service message, which every bot of the group receives.
import type { Message } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { peerAsSender } from './chat-messages.js';
import { targetChat } from './chat-target.js';
import { groupChat } from './group-chat.js';
import { hasRight } from './group-admins.js';
import type { MethodContext } from './method-context.js';
import { integerParam, stringParam, type Params } from './params.js';
import type { ForumTopicRecord, GroupRecord, SandboxStore } from './store.js';

/** The colours the service offers for a topic's icon (RGB); the first is the default. */
const ICON_COLORS = [0x6fb9f0, 0xffd67e, 0xcb86db, 0x8eee98, 0xff93b2, 0xfb6f5f];
const MAX_NAME_LENGTH = 128;

/** The service's ForumTopic object of a topic. */
export function forumTopicView(topic: ForumTopicRecord): Record<string, unknown> {
  return {
    message_thread_id: topic.id,
    name: topic.name,
    icon_color: topic.iconColor,
    ...(topic.iconCustomEmojiId ? { icon_custom_emoji_id: topic.iconCustomEmojiId } : {}),
  };
}

/** The forum group `chat_id` names, which the bot must be in; 400 `the chat is not a forum` for any other chat. */
function forumOf(context: MethodContext, params: Params): GroupRecord & { topics: Map<number, ForumTopicRecord> } {
  const target = targetChat(context.store, context.bot, params, { write: true });
  if (target.kind !== 'group' || !target.group.topics) throw badRequest('the chat is not a forum');
  return target.group as GroupRecord & { topics: Map<number, ForumTopicRecord> };
}

/** The topic `message_thread_id` names in the forum (400 `message thread not found` for none). */
function namedTopic(group: { topics: Map<number, ForumTopicRecord> }, params: Params): ForumTopicRecord {
  const id = integerParam(params, 'message_thread_id');
  const topic = id === undefined ? undefined : group.topics.get(id);
  if (!topic) throw badRequest('message thread not found');
  return topic;
}

function mayManage(group: GroupRecord, id: number, action: string): void {
  if (!hasRight(group, id, 'can_manage_topics')) throw badRequest(`not enough rights to ${action}`);
}

/** A topic name as the service takes it: trimmed, at most 128 characters, not empty. */
function topicName(params: Params): string | undefined {
  const raw = stringParam(params, 'name');
  if (raw === undefined) return undefined;
  const name = [...raw.trim()].slice(0, MAX_NAME_LENGTH).join('');
  if (name === '') throw badRequest('title must be non-empty');
  return name;
}

/** Posts a forum service message (`forum_topic_*`) in the topic, from the bot or user who did it. */
export function postTopicService(
  store: SandboxStore,
  group: GroupRecord,
  from: Message['from'],
  threadId: number | undefined,
  content: Record<string, unknown>,
): Message {
  const message = store.appendGroupMessage(group, (messageId, date) => {
    const thread = threadId ?? messageId;
    return { message_id: messageId, from, chat: groupChat(group), date, message_thread_id: thread, is_topic_message: true, ...content } as Message;
  });
  // Service messages reach every bot of the group, whatever its privacy mode.
  for (const bot of store.allBots()) if (group.botIds.has(bot.id)) bot.queue.push(message);
  return message;
}

/** Opens a topic named `name` in the forum, as `from`: its forum_topic_created message, and the topic. */
export function openTopic(
  store: SandboxStore,
  group: GroupRecord,
  from: Message['from'],
  name: string,
  iconColor = ICON_COLORS[0]!,
  emoji?: string,
): ForumTopicRecord {
  const created = { name, icon_color: iconColor, ...(emoji ? { icon_custom_emoji_id: emoji } : {}) };
  const message = postTopicService(store, group, from, undefined, { forum_topic_created: created });
  const topic: ForumTopicRecord = { id: message.message_id, name, iconColor, closed: false, ...(emoji ? { iconCustomEmojiId: emoji } : {}) };
  group.topics!.set(topic.id, topic);
  return topic;
}

/** createforumtopic: the new topic (ForumTopic). */
export function createForumTopic(context: MethodContext, params: Params): Record<string, unknown> {
  const group = forumOf(context, params);
  mayManage(group, context.bot.id, 'create a topic');
  const name = topicName(params);
  if (name === undefined) throw badRequest('parameter "name" is required');
  const color = integerParam(params, 'icon_color') ?? ICON_COLORS[0]!;
  if (!ICON_COLORS.includes(color)) throw badRequest('TOPIC_ICON_COLOR_INVALID');
  const emoji = stringParam(params, 'icon_custom_emoji_id') || undefined;
  return forumTopicView(openTopic(context.store, group, botSender(context), name, color, emoji));
}

/** editforumtopic: a new name and/or icon; `forum_topic_edited` names what changed. */
export function editForumTopic(context: MethodContext, params: Params): true {
  const group = forumOf(context, params);
  const topic = namedTopic(group, params);
  mayManage(group, context.bot.id, 'edit the topic');
  const name = topicName(params);
  const emoji = stringParam(params, 'icon_custom_emoji_id');
  const edited: Record<string, unknown> = {};
  if (name !== undefined && name !== topic.name) edited.name = topic.name = name;
  if (emoji !== undefined && emoji !== (topic.iconCustomEmojiId ?? '')) {
    edited.icon_custom_emoji_id = emoji;
    if (emoji === '') delete topic.iconCustomEmojiId;
    else topic.iconCustomEmojiId = emoji;
  }
  if (Object.keys(edited).length === 0) throw badRequest('TOPIC_NOT_MODIFIED');
  postTopicService(context.store, group, botSender(context), topic.id, { forum_topic_edited: edited });
  return true;
}

/** closeforumtopic / reopenforumtopic: members can no longer (or again) post in the topic. */
export function toggleForumTopic(closed: boolean) {
  return (context: MethodContext, params: Params): true => {
    const group = forumOf(context, params);
    const topic = namedTopic(group, params);
    mayManage(group, context.bot.id, 'close or reopen the topic');
    if (topic.closed === closed) throw badRequest('TOPIC_NOT_MODIFIED');
    topic.closed = closed;
    postTopicService(context.store, group, botSender(context), topic.id, closed ? { forum_topic_closed: {} } : { forum_topic_reopened: {} });
    return true;
  };
}

/** deleteforumtopic: the topic and every message in it are gone. */
export function deleteForumTopic(context: MethodContext, params: Params): true {
  const group = forumOf(context, params);
  const topic = namedTopic(group, params);
  mayManage(group, context.bot.id, 'delete the topic');
  group.topics.delete(topic.id);
  const ref = { userId: group.id, peer: '', groupId: group.id };
  const inTopic = context.store.groupMessages(group.id).filter((m) => m.message_thread_id === topic.id);
  for (const message of inTopic) context.store.removeMessage(ref, message.message_id);
  return true;
}

/**
 * The topic a message to the group goes to: the thread named (which must exist and, for someone who may not
 * manage topics, be open), else the thread of the message it replies to; undefined for General or a group
 * without topics (where message_thread_id is ignored).
 */
export function sendingThread(group: GroupRecord, senderId: number, threadId: number | undefined, replyTo: Message | undefined): ForumTopicRecord | undefined {
  if (!group.topics) return undefined;
  const id = threadId ?? (replyTo?.is_topic_message ? replyTo.message_thread_id : undefined);
  if (id === undefined) return undefined;
  const topic = group.topics.get(id);
  if (!topic) throw badRequest('message thread not found');
  if (topic.closed && !hasRight(group, senderId, 'can_manage_topics')) throw badRequest('TOPIC_CLOSED');
  return topic;
}

/** The fields a message in topic `threadId` carries: its thread, and (replying to nothing else) a reply to the topic's first message. */
export function topicFields(store: SandboxStore, group: GroupRecord, threadId: number | undefined, replyTo: Message | undefined): Record<string, unknown> {
  if (threadId === undefined || !group.topics) return {};
  const fields: Record<string, unknown> = { message_thread_id: threadId, is_topic_message: true };
  if (!replyTo) {
    const opening = store.groupMessages(group.id).find((m) => m.message_id === threadId);
    if (opening) fields.reply_to_message = opening;
  }
  return fields;
}

/** GET /client/topics: the group's topics, oldest first. */
export function topicList(group: GroupRecord): Array<{ message_thread_id: number; name: string; closed: boolean }> {
  return [...(group.topics?.values() ?? [])].map((topic) => ({ message_thread_id: topic.id, name: topic.name, closed: topic.closed }));
}

function botSender({ bot }: MethodContext): Message['from'] {
  return peerAsSender({ id: bot.id, name: bot.name, username: bot.username });
}
