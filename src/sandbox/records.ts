// What the sandbox keeps and announces, as records: users, bots with their settings and update queue, the
// peers a user talks to (the assistant or a bot), groups, and the events of stored messages and queued updates.
import type { BotCommand, Message, Update } from '@grammyjs/types';
import type { UpdateQueue } from './update-queue.js';

export interface SandboxUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

export interface WebhookConfig {
  url: string;
  secretToken?: string;
  maxConnections: number;
}

export interface WebhookStatus {
  lastErrorDate?: number;
  lastErrorMessage?: string;
}

export interface BotRecord {
  id: number;
  name: string;
  username: string;
  token: string;
  ownerId: number;
  queue: UpdateQueue;
  webhook?: WebhookConfig;
  webhookStatus: WebhookStatus;
  /** Command lists by `<scope key>|<language code>` (setmycommands). */
  commands: Map<string, BotCommand[]>;
  /** Texts set through setmyname, setmydescription, setmyshortdescription, by `<field>|<language code>`. */
  profile: Map<string, string>;
  /** Menu buttons by chat id ('' for the default), from setchatmenubutton. */
  menuButtons: Map<string, Record<string, unknown>>;
  /** Privacy mode in groups (on by default; BotMaker's /setprivacy switches it): only commands, mentions and replies reach the bot. */
  privacy: boolean;
}

/** A participant a user can talk to: the assistant or a bot. */
export interface Peer {
  id: number;
  name: string;
  username: string;
  bot?: BotRecord;
}

/** An update queued for a bot (its username), as the bot will receive it. */
export interface QueuedUpdateEvent {
  bot: string;
  update: Update;
}

export interface StoredMessageEvent {
  /** The user of a private chat; for a group message, the group's (negative) chat id. */
  userId: number;
  /** The bot's or the assistant's username; empty for a group message. */
  peer: string;
  /** The bot's or the assistant's user id; unset for a group message. */
  peerId?: number;
  message: Message;
  /** Set for a group message: the group's chat id. */
  groupId?: number;
}

export type GroupType = 'group' | 'supergroup';

export interface GroupRecord {
  /** Negative; a supergroup's starts with -100, as on the real service. */
  id: number;
  type: GroupType;
  title: string;
  memberIds: Set<number>;
  botIds: Set<number>;
  /** The user who created the group: its owner (status `creator`). */
  creatorId: number;
  /** Administrators (users and bots, by id) with their rights; the creator is not listed, it holds every right. */
  admins: Map<number, AdminRights>;
  /** Members an administrator restricted, by user id (see permissions.ts). */
  restricted: Map<number, Restriction>;
  /** Users banned from the group, by user id: until when (Unix seconds; 0: for good). */
  banned: Map<number, number>;
  /** Whether joining takes an administrator's approval (a join link with requests). */
  joinByRequest: boolean;
  /** The pending requests to join, by user id. */
  joinRequests: Map<number, JoinRequest>;
  /** A supergroup with topics on (a forum): its topics by message_thread_id; absent for a group without topics. */
  topics?: Map<number, ForumTopicRecord>;
}

/** What a restricted member may still do, and until when (Unix seconds; 0: for good). */
export interface Restriction {
  permissions: Record<string, boolean>;
  until: number;
}

/** A user's request to join a group that approves new members. */
export interface JoinRequest {
  user: SandboxUser;
  date: number;
}

/** The rights of a group administrator, as ChatAdministratorRights names them. */
export interface AdminRights {
  can_manage_chat: boolean;
  can_change_info: boolean;
  can_delete_messages: boolean;
  can_invite_users: boolean;
  can_restrict_members: boolean;
  can_pin_messages: boolean;
  can_manage_topics: boolean;
  can_promote_members: boolean;
  can_manage_video_chats: boolean;
  can_post_stories: boolean;
  can_edit_stories: boolean;
  can_delete_stories: boolean;
  can_manage_tags: boolean;
  is_anonymous: boolean;
}

/** One topic of a forum group. */
export interface ForumTopicRecord {
  /** Its message_thread_id: the id of its forum_topic_created message. */
  readonly id: number;
  name: string;
  readonly iconColor: number;
  iconCustomEmojiId?: string;
  closed: boolean;
}

export const ASSISTANT: Peer = { id: 93_372_553, name: 'BotMaker', username: 'BotMaker' };
