// The engine's view of an update: one normalised event per update it can act on (a text message, a message
// with a photo, a document, a location …, a button press, a member joining, leaving or restricted, the bot's own
// status, a join request), the flow timeouts the runtime raises, and the per-chat key that orders them.
// Everything else is null.
import type { CallbackQuery, Chat, ChatMember, ChatMemberUpdated, MaybeInaccessibleMessage, Message, Update, User } from '@grammyjs/types';
import type { HandoffSignalEvent } from './handoff.js';
import { mediaKindOf, type IncomingMediaKind } from './message-media.js';
import type { RuleSet } from './rule-set.js';

/** A text message (new, in a private chat, a group or a channel-less supergroup). */
export interface MessageEvent {
  readonly kind: 'message';
  readonly updateId: number;
  readonly chat: Chat;
  /** Absent for messages sent on behalf of a chat or channel. */
  readonly from?: User;
  readonly message: Message.TextMessage;
}

/** A press of an inline keyboard button; the service expects every press answered (answer_callback). */
export interface CallbackQueryEvent {
  readonly kind: 'callback_query';
  readonly updateId: number;
  /** The callback query id that answer_callback needs. */
  readonly id: string;
  readonly from: User;
  /** The message the button was on; absent for a button on a message sent in inline mode. */
  readonly message?: MaybeInaccessibleMessage;
  /** The chat of that message; absent with it. */
  readonly chat?: Chat;
  /** For a button on a message sent in inline mode. */
  readonly inlineMessageId?: string;
  /** The button's callback_data; absent for a game button. */
  readonly data?: string;
}

/**
 * Users joined or left a chat. Built from the service message (`new_chat_members`, `left_chat_member`),
 * which groups deliver as ordinary messages, or from a `chat_member` update (delivered only to administrator
 * bots that ask for it), so one join can arrive both ways.
 */
export interface MemberEvent {
  readonly kind: 'member_joined' | 'member_left';
  readonly updateId: number;
  readonly chat: Chat;
  /** Who made the change (the member themself when they joined or left on their own). */
  readonly from?: User;
  /** The users who joined or left (a service message may name several). */
  readonly members: readonly User[];
  readonly source: 'message' | 'chat_member';
  /** When the change happened (Unix seconds): the service message's or the chat_member update's date. */
  readonly date: number;
  /** The service message, when the event came from one. */
  readonly message?: Message;
}

/**
 * A user's flow in a chat may have timed out: raised by the runtime (no update brings it) when the time
 * from {@link flowDeadline} has come. decide answers it with the flow's timeout reply and leaves the flow,
 * or with nothing when the user moved on since it was scheduled. Ordered with the chat's other events.
 */
export interface FlowTimeoutEvent {
  readonly kind: 'flow_timeout';
  readonly chat: { readonly id: number };
  /** The user whose flow it is. */
  readonly from: { readonly id: number };
}

/** A message that carries a photo, a document, a location … (with or without a caption): rules with `event: photo` (…) or `media: any` answer it. */
export interface MediaEvent {
  readonly kind: 'media';
  readonly updateId: number;
  readonly chat: Chat;
  /** Absent for messages sent on behalf of a chat or channel. */
  readonly from?: User;
  readonly message: Message;
  readonly media: IncomingMediaKind;
}

/**
 * The bot's own status changed (my_chat_member): a user blocked or unblocked it in their private chat, or it
 * was added to a group or removed from one. `from` is who did it.
 */
export interface BotStatusEvent {
  readonly kind: 'bot_status';
  readonly status: 'blocked' | 'unblocked' | 'bot_added' | 'bot_removed';
  readonly updateId: number;
  readonly chat: Chat;
  readonly from: User;
  readonly date: number;
}

/** A user asked to join a group that approves new members (chat_join_request); `from` is that user. */
export interface JoinRequestEvent {
  readonly kind: 'join_request';
  readonly updateId: number;
  readonly chat: Chat;
  readonly from: User;
  readonly date: number;
  /** The requester's private chat, where the bot may write while the request waits (a join flow's questions). */
  readonly userChatId: number;
}

/** An administrator restricted a member (chat_member, the member still in the group); `from` is the member. */
export interface MemberRestrictedEvent {
  readonly kind: 'member_restricted';
  readonly updateId: number;
  readonly chat: Chat;
  readonly from: User;
  /** The administrator who did it. */
  readonly by: User;
  readonly date: number;
}

/**
 * A message without text or media (a dice, a poll, a service message such as forum_topic_created): no rule
 * answers it, but a hand-off relays it (see handoff.ts).
 */
export interface OtherMessageEvent {
  readonly kind: 'other_message';
  readonly updateId: number;
  readonly chat: Chat;
  readonly from?: User;
  readonly message: Message;
}

/** A normalised update the engine can decide on (or a flow timeout, a hand-off signal); the `kind` says which. */
export type BotEvent =
  | MessageEvent
  | MediaEvent
  | CallbackQueryEvent
  | MemberEvent
  | FlowTimeoutEvent
  | BotStatusEvent
  | JoinRequestEvent
  | MemberRestrictedEvent
  | OtherMessageEvent
  | HandoffSignalEvent;

/**
 * The update kinds the bot asks the service for (allowed_updates) under these rules: messages (which also
 * carry the member service messages) and button presses; `chat_member` too when a rule answers members
 * joining or leaving, since a group may hide its join messages and the service sends chat_member only to
 * bots that list it. A member change that arrives both ways is answered once (see decideMember).
 */
export function updateKindsFor(ruleSet: Pick<RuleSet, 'index'>): string[] {
  const { events } = ruleSet.index;
  // my_chat_member always: a user who blocks the bot is marked (user._blocked) whatever the rules.
  const kinds = ['message', 'callback_query', 'my_chat_member'];
  if (events.has('member_joined') || events.has('member_left') || events.has('member_restricted')) kinds.push('chat_member');
  if (events.has('join_request')) kinds.push('chat_join_request');
  return kinds;
}

/**
 * Normalises an update into the event the engine decides on; null for what hearsay ignores (other service
 * messages, edited messages, channel posts, other update kinds).
 */
export function toEvent(update: Update): BotEvent | null {
  const updateId = update.update_id;
  if (update.message) return messageEvent(updateId, update.message);
  if (update.callback_query) return callbackQueryEvent(updateId, update.callback_query);
  if (update.chat_member) return chatMemberEvent(updateId, update.chat_member);
  if (update.my_chat_member) return botStatusEvent(updateId, update.my_chat_member);
  if (update.chat_join_request) {
    const request = update.chat_join_request;
    return { kind: 'join_request', updateId, chat: request.chat, from: request.from, date: request.date, userChatId: request.user_chat_id ?? request.from.id };
  }
  return null;
}

/** The bot's own change: blocked/unblocked in a private chat, added to or removed from a group; null for a promotion. */
function botStatusEvent(updateId: number, change: ChatMemberUpdated): BotStatusEvent | null {
  const before = isMember(change.old_chat_member);
  const after = isMember(change.new_chat_member);
  if (before === after) return null;
  const base = { updateId, chat: change.chat, from: change.from, date: change.date };
  if (change.chat.type === 'private') return { kind: 'bot_status', status: after ? 'unblocked' : 'blocked', ...base };
  return { kind: 'bot_status', status: after ? 'bot_added' : 'bot_removed', ...base };
}

function messageEvent(updateId: number, message: Message): BotEvent | null {
  // Every text message's event is built as one literal of one shape (`from` undefined when absent): the common case.
  if (typeof message.text === 'string') return { kind: 'message', updateId, chat: message.chat, from: message.from, message: message as Message.TextMessage };
  const base = { updateId, chat: message.chat, ...(message.from ? { from: message.from } : {}) };
  const date = message.date;
  if (message.new_chat_members?.length) return { kind: 'member_joined', ...base, members: message.new_chat_members, source: 'message', date, message };
  if (message.left_chat_member) return { kind: 'member_left', ...base, members: [message.left_chat_member], source: 'message', date, message };
  const media = mediaKindOf(message);
  return media ? { kind: 'media', ...base, message, media } : { kind: 'other_message', ...base, message };
}

function callbackQueryEvent(updateId: number, query: CallbackQuery): CallbackQueryEvent {
  return {
    kind: 'callback_query',
    updateId,
    id: query.id,
    from: query.from,
    ...(query.message ? { message: query.message, chat: query.message.chat } : {}),
    ...(query.inline_message_id !== undefined ? { inlineMessageId: query.inline_message_id } : {}),
    ...(query.data !== undefined ? { data: query.data } : {}),
  };
}

/** Whether a chat_member status counts as being in the chat (a restricted user may be in it or not). */
function isMember(member: ChatMember): boolean {
  if (member.status === 'restricted') return member.is_member;
  return member.status === 'creator' || member.status === 'administrator' || member.status === 'member';
}

/** A change of membership is a member event, a member newly restricted a member_restricted one; a promotion is none. */
function chatMemberEvent(updateId: number, change: ChatMemberUpdated): MemberEvent | MemberRestrictedEvent | null {
  const before = isMember(change.old_chat_member);
  const after = isMember(change.new_chat_member);
  if (before === after) {
    if (!after || change.new_chat_member.status !== 'restricted' || change.old_chat_member.status === 'restricted') return null;
    return { kind: 'member_restricted', updateId, chat: change.chat, from: change.new_chat_member.user, by: change.from, date: change.date };
  }
  return {
    kind: after ? 'member_joined' : 'member_left',
    updateId,
    chat: change.chat,
    from: change.from,
    members: [change.new_chat_member.user],
    source: 'chat_member',
    date: change.date,
  };
}

/**
 * The key that orders an event among others: events with the same key are handled one at a time, in
 * arrival order. `chat:<id>` for messages, member events and presses of a button on a message in a chat;
 * `user:<id>` for a press on a message sent in inline mode (it has no chat). A flow timeout goes with its chat.
 */
export function eventChatKey(event: BotEvent): string {
  if (event.chat) return `chat:${event.chat.id}`;
  if (event.kind === 'flow_timeout' || event.kind === 'handoff_signal') return `user:${event.from.id}`; // unreachable: these always have their chat
  return event.kind === 'callback_query' ? `user:${event.from.id}` : `update:${event.updateId}`;
}

/**
 * The ordering key of a raw update (see {@link eventChatKey}); an update the engine ignores is keyed by
 * any chat it names, else by its own id, so it never waits behind (or holds up) another.
 */
export function chatKeyOf(update: Update): string {
  const event = toEvent(update);
  if (event) return eventChatKey(event);
  for (const value of Object.values(update)) {
    const chatId = (value as { chat?: { id?: unknown } } | null)?.chat?.id;
    if (typeof value === 'object' && chatId !== undefined) return `chat:${String(chatId)}`;
  }
  return `update:${update.update_id}`;
}
