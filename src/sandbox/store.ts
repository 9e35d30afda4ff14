// The sandbox's whole state, in memory: users, bots and their tokens, private chats and groups with their
// messages, who blocked whom. Every stored message is announced to subscribers (long polls, a web chat page).
import type { Message } from '@grammyjs/types';
import { chatKeyOf, type ChatChangeEvent, type ChatRef, type MessageMeta, type ShownAction, type StoredMarkup } from './message-meta.js';
import {
  ASSISTANT,
  type BotRecord,
  type GroupRecord,
  type GroupType,
  type Peer,
  type QueuedUpdateEvent,
  type SandboxUser,
  type StoredMessageEvent,
} from './records.js';
import { SandboxFiles } from './files.js';
import { randomUUID } from 'node:crypto';
import { BotPresence } from './bot-presence.js';
import { HearsayReports } from './hearsay-reports.js';
import { generateToken } from './tokens.js';
import { UpdateQueue } from './update-queue.js';

/** The records are part of the store's interface: its users import them from here. */
export * from './records.js';

interface ChatLog {
  ref: ChatRef;
  messages: Message[];
  nextMessageId: number;
  meta: Map<number, MessageMeta>;
  action?: ShownAction;
  /** The reply keyboard in force (the last one a bot sent, until removed or used once when one_time). */
  keyboard?: StoredMarkup;
  /** The pinned messages' ids, the latest last. */
  pins: number[];
}

export class SandboxStore {
  /** Every file sent by a bot or a user, with the file ids bots know it by. */
  readonly files = new SandboxFiles();
  /** This sandbox's id: a new one per start, so a page or a bot can tell a restarted sandbox (which knows none of the old bots). */
  readonly instance: string = randomUUID();
  /** Whether a program answers as each bot. */
  readonly presence = new BotPresence();
  /** What hearsay processes running bots report (rule problems, why they answered). */
  readonly reports = new HearsayReports();
  private readonly users = new Map<number, SandboxUser>();
  private readonly botsByUsername = new Map<string, BotRecord>();
  private readonly botsByToken = new Map<string, BotRecord>();
  private readonly chats = new Map<string, ChatLog>();
  private readonly blocked = new Set<string>();
  private readonly messageListeners = new Set<(event: StoredMessageEvent) => void>();
  private readonly changeListeners = new Set<(event: ChatChangeEvent) => void>();
  private readonly updateListeners = new Set<(event: QueuedUpdateEvent) => void>();
  private revision = 0;
  private readonly groups = new Map<number, GroupRecord>();
  private nextGroupNumber = 4_100_000_001;
  private nextBotId = 7_000_000_001 + Math.floor(Math.random() * 1_000_000) * 100;

  rememberUser(user: SandboxUser): SandboxUser {
    const merged = { ...this.users.get(user.id), ...user };
    this.users.set(user.id, merged);
    return merged;
  }

  user(id: number): SandboxUser | undefined {
    return this.users.get(id);
  }

  peerByUsername(username: string): Peer | undefined {
    const key = username.replace(/^@/, '').toLowerCase();
    if (key === ASSISTANT.username.toLowerCase()) return ASSISTANT;
    const bot = this.botsByUsername.get(key);
    return bot ? { id: bot.id, name: bot.name, username: bot.username, bot } : undefined;
  }

  isUsernameTaken(username: string): boolean {
    return this.peerByUsername(username) !== undefined;
  }

  botByToken(token: string): BotRecord | undefined {
    return this.botsByToken.get(token);
  }

  botsOf(ownerId: number): BotRecord[] {
    return [...this.botsByUsername.values()].filter((bot) => bot.ownerId === ownerId);
  }

  allBots(): BotRecord[] {
    return [...this.botsByUsername.values()];
  }

  createBot(ownerId: number, name: string, username: string): BotRecord {
    const id = this.nextBotId++;
    // Each bot gets its own file ids in what it receives, as on the real service.
    const queue = new UpdateQueue((update) => this.files.viewFor(id, update));
    queue.onPush((update) => {
      for (const listener of this.updateListeners) listener({ bot: username, update });
    });
    const bot: BotRecord = {
      ...{ id, name, username, token: generateToken(id), ownerId, queue, webhookStatus: {} },
      ...{ commands: new Map(), profile: new Map(), menuButtons: new Map(), privacy: true },
    };
    this.botsByUsername.set(username.toLowerCase(), bot);
    this.botsByToken.set(bot.token, bot);
    return bot;
  }

  /** A new token; the old one stops working at once. */
  regenerateToken(bot: BotRecord): string {
    this.botsByToken.delete(bot.token);
    bot.token = generateToken(bot.id);
    this.botsByToken.set(bot.token, bot);
    return bot.token;
  }

  setBlocked(userId: number, botId: number, blocked: boolean): void {
    if (blocked) this.blocked.add(`${userId}:${botId}`);
    else this.blocked.delete(`${userId}:${botId}`);
  }

  isBlocked(userId: number, botId: number): boolean {
    return this.blocked.has(`${userId}:${botId}`);
  }

  hasChat(userId: number, peerId: number): boolean {
    return this.chats.has(`${userId}:${peerId}`);
  }

  messages(userId: number, peerId: number): Message[] {
    return this.chats.get(`${userId}:${peerId}`)?.messages ?? [];
  }

  findMessage(userId: number, peerId: number, messageId: number): Message | undefined {
    return this.messages(userId, peerId).find((message) => message.message_id === messageId);
  }

  /**
   * Stores a message in the private chat of `userId` and `peer`; `build` gets the chat's next message id.
   * `markup` is the message's reply markup of any kind (the Message itself carries only an inline keyboard).
   */
  appendMessage(userId: number, peer: Peer, build: (messageId: number, date: number) => Message, markup?: StoredMarkup): Message {
    const key = `${userId}:${peer.id}`;
    let chat = this.chats.get(key);
    if (!chat) {
      chat = { ref: { userId, peer: peer.username, peerId: peer.id }, messages: [], nextMessageId: 1, meta: new Map(), pins: [] };
      this.chats.set(key, chat);
    }
    return this.append(chat, build, markup);
  }

  private append(chat: ChatLog, build: (messageId: number, date: number) => Message, markup: StoredMarkup | undefined): Message {
    const message = build(chat.nextMessageId++, Math.floor(Date.now() / 1000));
    chat.messages.push(message);
    this.files.noteChat(chatKeyOf(chat.ref), message);
    chat.meta.set(message.message_id, { revision: ++this.revision, edits: [], ...(markup ? { markup } : {}) });
    if (message.from?.is_bot) delete chat.action;
    if (markup?.kind === 'keyboard') chat.keyboard = markup;
    if (markup?.kind === 'remove') delete chat.keyboard;
    if (!message.from?.is_bot && chat.keyboard?.kind === 'keyboard' && chat.keyboard.markup.one_time_keyboard) delete chat.keyboard;
    for (const listener of this.messageListeners) listener({ ...chat.ref, message });
    return message;
  }

  /** What the sandbox keeps about a stored message beyond the Message, or undefined if there is no such message. */
  messageMeta(ref: ChatRef, messageId: number): MessageMeta | undefined {
    return this.chats.get(chatKeyOf(ref))?.meta.get(messageId);
  }

  /** Records that something about a chat (and optionally one of its messages) changed, and tells subscribers. */
  changed(ref: ChatRef, kind: ChatChangeEvent['kind'], messageId?: number): void {
    const chat = this.chats.get(chatKeyOf(ref));
    if (!chat) return;
    const revision = ++this.revision;
    const meta = messageId === undefined ? undefined : chat.meta.get(messageId);
    if (meta) meta.revision = revision;
    const event: ChatChangeEvent = { ...chat.ref, kind, revision, ...(messageId !== undefined ? { messageId } : {}) };
    for (const listener of this.changeListeners) listener(event);
  }

  /** Keeps why the bot answered with the message (explainupdate), shown with it on the page. */
  explain(ref: ChatRef, messageId: number, why: Record<string, unknown>): void {
    const meta = this.chats.get(chatKeyOf(ref))?.meta.get(messageId);
    if (!meta || meta.deleted) return;
    meta.why = why;
    this.changed(ref, 'explained', messageId);
  }

  /** Removes a message from its chat (deletemessage); its meta stays, marked deleted, so readers learn of it. */
  removeMessage(ref: ChatRef, messageId: number): void {
    const chat = this.chats.get(chatKeyOf(ref));
    const meta = chat?.meta.get(messageId);
    if (!chat || !meta) return;
    chat.messages = chat.messages.filter((message) => message.message_id !== messageId);
    meta.deleted = true;
    this.changed(ref, 'deleted', messageId);
  }

  /** Every message id of the chat with its meta, deleted ones included. */
  chatMeta(ref: ChatRef): ReadonlyMap<number, MessageMeta> {
    return this.chats.get(chatKeyOf(ref))?.meta ?? new Map();
  }

  /** The chat action shown in the chat now, if any. */
  shownAction(ref: ChatRef): ShownAction | undefined {
    const action = this.chats.get(chatKeyOf(ref))?.action;
    return action && action.until > Date.now() ? action : undefined;
  }

  showAction(ref: ChatRef, action: ShownAction | undefined): void {
    const chat = this.chats.get(chatKeyOf(ref));
    if (!chat) return;
    if (action) chat.action = action;
    else delete chat.action;
    this.changed(ref, 'action');
  }

  /** The ids of the chat's pinned messages, the latest last (the list itself: pinning changes it in place). */
  pins(ref: ChatRef): number[] {
    return this.chats.get(chatKeyOf(ref))?.pins ?? [];
  }

  /** The reply keyboard in force in the chat, if any. */
  replyKeyboard(ref: ChatRef): StoredMarkup | undefined {
    return this.chats.get(chatKeyOf(ref))?.keyboard;
  }

  onChange(listener: (event: ChatChangeEvent) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  createGroup(title: string, type: GroupType, memberIds: number[], botIds: number[]): GroupRecord {
    const number = this.nextGroupNumber++;
    // Real ids: a basic group is -<number>, a supergroup -100<number>.
    const id = type === 'supergroup' ? -(1_000_000_000_000 + number) : -number;
    // The first member creates the group and owns it.
    const group: GroupRecord = {
      ...{ id, type, title, memberIds: new Set(memberIds), botIds: new Set(botIds) },
      ...{ creatorId: memberIds[0]!, admins: new Map(), restricted: new Map(), banned: new Map() },
      ...{ joinByRequest: false, joinRequests: new Map() },
    };
    this.groups.set(id, group);
    this.chats.set(`group:${id}`, { ref: { userId: id, peer: '', groupId: id }, messages: [], nextMessageId: 1, meta: new Map(), pins: [] });
    return group;
  }

  group(id: number): GroupRecord | undefined {
    return this.groups.get(id);
  }

  /** Every group, oldest first. */
  allGroups(): GroupRecord[] {
    return [...this.groups.values()];
  }

  groupMessages(groupId: number): Message[] {
    return this.chats.get(`group:${groupId}`)?.messages ?? [];
  }

  /** Stores a message in a group; `build` gets the group's next message id. */
  appendGroupMessage(group: GroupRecord, build: (messageId: number, date: number) => Message, markup?: StoredMarkup): Message {
    return this.append(this.chats.get(`group:${group.id}`)!, build, markup);
  }

  /** Every update queued for any bot, with its update_id. Returns an unsubscribe function. */
  onUpdate(listener: (event: QueuedUpdateEvent) => void): () => void {
    this.updateListeners.add(listener);
    return () => this.updateListeners.delete(listener);
  }

  onMessage(listener: (event: StoredMessageEvent) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }
}
