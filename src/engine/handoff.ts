// Hand-off to a person: what decide does while a customer talks to staff instead of the bot. The state is
// conversation state, committed with the updates that change it: the customer's user variables hold `_handoff`
// (since when, and the rule) and `_handoff_topic` (the staff topic; 0 in a staff group without topics), so
// `hearsay state show --user` shows them; a hand-off only starts in a private chat. The staff chat holds `_handoff_topic_<thread>` (whose topic it is), learnt from the topic's forum_topic_created message.
// Everything that goes between the chats is a `handoff` effect in the customer's order key (so it is done once,
// in order, after what the customer's chat did before): opening the topic with a header, each copy one way or
// the other, the end and the idle timer, which come back as a HandoffSignalEvent in the customer's turn.
import type { Message, User } from '@grammyjs/types';
import type { Action, EffectAction, JsonValue } from './actions.js';
import type { Decision, DecideContext } from './decide-types.js';
import { normalize } from './normalize.js';
import { render } from './render.js';
import type { RuleSet } from './rule-set.js';
import { valueIn, type ConversationState } from './state.js';

/** The configuration's `handoff:` block, as decide needs it. */
export interface HandoffSettings {
  /** The staff group's chat id. */
  readonly chatId: number;
  /** Hand back to the bot after this long without a staff message; null: never by itself. */
  readonly idleMs: number | null;
  /** What staff write to hand the customer back, normalised. */
  readonly endWords: ReadonlySet<string>;
}

/** The customer's user variable that says a hand-off is on: `<since ms>|<rule id>`. */
export const HANDOFF_VARIABLE = '_handoff';
/** The customer's user variable with the staff topic's message_thread_id (0: the staff group has no topics). */
export const HANDOFF_TOPIC_VARIABLE = '_handoff_topic';
/** The staff chat's variable naming the customer (their chat id) of topic `thread`. */
export const topicOwnerVariable = (thread: number): string => `_handoff_topic_${thread}`;
/** The replace key of a customer's idle timer: each staff message sets it again. */
export const idleKey = (customer: number): string => `handoff-idle:${customer}`;
/** How many message ids before the hand-off the header brings along (about 10 messages and their answers). */
const HISTORY_IDS = 20;
const TOPIC_NAME_LENGTH = 128;

/** A hand-off signal, raised by the `handoff` effect performer in the customer's turn (no update brings it). */
export interface HandoffSignalEvent {
  readonly kind: 'handoff_signal';
  readonly chat: { readonly id: number };
  readonly from: { readonly id: number };
  /**
   * `topic`: the staff topic is known; `end`: staff wrote an end word; `idle`: no staff message for `idle`;
   * `blocked`: the customer blocked the bot; `unreachable`: the staff group refused the hand-off (the bot was removed).
   */
  readonly signal: 'topic' | 'end' | 'idle' | 'blocked' | 'unreachable';
  readonly topic?: number;
  /** Who ended it (a staff member's name), for the line in the topic. */
  readonly by?: string;
}

/** The line in the topic when a hand-off ends other than by a staff member's end word. */
const REASONS: Partial<Record<HandoffSignalEvent['signal'], string>> = {
  idle: 'no staff message for a while',
  blocked: 'the customer blocked the bot; nothing more reaches them',
  unreachable: 'the staff group could not be reached',
};

/** Whether the customer of this state is handed off. */
export function isHandedOff(state: Pick<ConversationState, 'user'>): boolean {
  return valueIn(state.user, HANDOFF_VARIABLE) !== undefined;
}

/**
 * The link to a topic as the service forms it for a supergroup: t.me/c/, the chat id without its -100, the
 * thread. Empty for a chat that is not a supergroup.
 */
export function topicLink(chatId: number, thread: number): string {
  const id = String(chatId);
  return id.startsWith('-100') ? `https://t.me/c/${id.slice(4)}/${thread}` : '';
}

/**
 * What {{handoff.topic_link}} shows for a user with these variables: the link to their topic; empty without one
 * (never handed off, or a staff group without topics); `pending` when `pending` is allowed (an outbox effect's
 * text) and their topic may still be opening.
 */
export function topicLinkValue(user: ConversationState['user'], context: DecideContext, pending = false): string | 'pending' | undefined {
  const settings = context.handoff;
  if (!settings) return undefined;
  const topic = valueIn(user, HANDOFF_TOPIC_VARIABLE);
  if (typeof topic === 'number') return topic > 0 ? topicLink(settings.chatId, topic) : '';
  return pending ? 'pending' : '';
}

/** The topic name of a customer: their name, @username and id (the id lets the bot know the topic again). */
export function topicName(user: User): string {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  const handle = user.username ? ` (@${user.username})` : '';
  const id = ` #${user.id}`;
  return [...`${name}${handle}`].slice(0, TOPIC_NAME_LENGTH - id.length).join('') + id;
}

/** The customer of a topic the bot opened, from its name (`… #<id>`). */
function customerOfTopicName(name: string): number | undefined {
  const match = /#(\d+)$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** How a copy of the customer's message names them in a staff group without topics: `Cleo Smith (@cleo, id 42)`. */
export function customerLabel(user: User): string {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return `${name} (${user.username ? `@${user.username}, ` : ''}id ${user.id})`;
}

function handoffEffect(customer: number, payload: { [key: string]: JsonValue }, extra: Partial<EffectAction> = {}): EffectAction {
  return { type: 'effect', kind: 'handoff', payload, orderKey: `chat:${customer}`, ...extra };
}

/** The idle timer of a customer's hand-off, from now (none when `idle` is not set). */
function idleTimer(customer: number, settings: HandoffSettings, now: number): EffectAction[] {
  if (settings.idleMs === null) return [];
  return [handoffEffect(customer, { op: 'idle', customer }, { dueAt: now + settings.idleMs, replaceKey: idleKey(customer) })];
}

/**
 * Starting a hand-off from the customer's message `message` (the rule `ruleId` said so, answering it with
 * `replies` messages): the state, the topic
 * opened (or reopened) with its header and the chat's last messages, and the idle timer. Nothing when hand-off
 * is not configured, the chat is not a private one, or the customer is handed off already.
 */
export function startHandoff(message: Message, ruleId: string, state: Pick<ConversationState, 'user'>, context: DecideContext, replies = 0): Action[] {
  const settings = context.handoff;
  const user = message.from;
  if (!settings || !user || message.chat.type !== 'private' || isHandedOff(state)) return [];
  const now = (context.now ?? Date.now)();
  const customer = message.chat.id;
  const header = [
    `Hand-off: ${customerLabel(user)}${user.language_code ? `, language ${user.language_code}` : ''}`,
    `Rule: ${ruleId}`,
    `Write here to answer; ${[...settings.endWords][0] ?? 'an end word'} hands ${user.first_name} back to the bot. The chat so far:`,
  ].join('\n');
  // The rule's own replies (sent before the effect runs) follow the message: they are part of the chat so far.
  const last = message.message_id + replies;
  const history = Array.from({ length: Math.min(HISTORY_IDS, last) }, (_, i) => last - Math.min(HISTORY_IDS, last) + 1 + i);
  return [
    { type: 'set_state', scope: 'user', key: HANDOFF_VARIABLE, value: `${now}|${ruleId}` },
    handoffEffect(customer, { op: 'open', customer, staff: settings.chatId, name: topicName(user), label: customerLabel(user), header, history }),
    ...idleTimer(customer, settings, now),
  ];
}

/** A message of a handed-off customer: copied to their topic (or, without topics, to the staff group naming them). */
export function relayFromCustomer(message: Message, context: DecideContext): Decision {
  const settings = context.handoff!;
  const customer = message.chat.id;
  const payload: { [key: string]: JsonValue } = { op: 'copy', customer, staff: settings.chatId, message_id: message.message_id };
  if (message.from) payload.label = customerLabel(message.from);
  if (message.text !== undefined) payload.text = message.text;
  if (message.entities) payload.entities = message.entities as unknown as JsonValue;
  if (message.caption !== undefined) payload.caption = message.caption;
  if (message.caption_entities) payload.caption_entities = message.caption_entities as unknown as JsonValue;
  return { ruleId: 'handoff#customer', actions: [handoffEffect(customer, payload)] };
}

/**
 * A message in the staff group: the bot's own forum_topic_created (the topic's owner is noted), or a staff
 * member's message in a customer's topic (or, without topics, in reply to the bot's copy of a customer's
 * message): an end word ends the hand-off, anything else is copied to the customer and restarts the idle timer.
 * Null for any other message, which the rules answer as usual.
 */
export function decideStaff(message: Message, state: ConversationState, context: DecideContext): Decision | null {
  const settings = context.handoff;
  if (!settings || message.chat.id !== settings.chatId) return null;
  const created = message.forum_topic_created;
  if (created && message.from?.is_bot && message.from.username?.toLowerCase() === context.botUsername.toLowerCase()) {
    const customer = customerOfTopicName(created.name);
    if (customer === undefined) return null;
    return { ruleId: 'handoff#topic', actions: [{ type: 'set_state', scope: 'chat', key: topicOwnerVariable(message.message_id), value: customer }] };
  }
  if (!message.from || message.from.is_bot) return null;
  const customer = customerOf(message, state, context);
  if (customer === undefined) return null;
  const words = message.text === undefined ? '' : normalize(message.text);
  if (settings.endWords.has(words)) {
    const by = [message.from.first_name, message.from.last_name].filter(Boolean).join(' ');
    return { ruleId: 'handoff#end', actions: [handoffEffect(customer, { op: 'end', customer, by })] };
  }
  const now = (context.now ?? Date.now)();
  const relay = handoffEffect(customer, { op: 'relay', customer, staff: settings.chatId, message_id: message.message_id });
  return { ruleId: 'handoff#staff', actions: [relay, ...idleTimer(customer, settings, now)] };
}

/** The customer a staff message answers: its topic's owner, else the customer a replied-to copy of the bot's names. */
function customerOf(message: Message, state: ConversationState, context: DecideContext): number | undefined {
  if (message.is_topic_message && message.message_thread_id !== undefined) {
    const owner = valueIn(state.chat, topicOwnerVariable(message.message_thread_id));
    if (typeof owner === 'number') return owner;
  }
  const replied = message.reply_to_message;
  if (!replied?.from?.is_bot || replied.from.username?.toLowerCase() !== context.botUsername.toLowerCase()) return undefined;
  const firstLine = (replied.text ?? replied.caption ?? '').split('\n', 1)[0]!;
  const match = /\bid (\d+)\)/.exec(firstLine);
  return match ? Number(match[1]) : undefined;
}

/**
 * A hand-off signal in the customer's turn: the topic noted; or the hand-off ended (by staff or idle): see
 * endHandoff, and `handoff_end` sent to the customer.
 */
export function decideHandoffSignal(event: HandoffSignalEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext): Decision {
  const customer = event.chat.id;
  if (event.signal === 'topic') {
    return { ruleId: 'handoff#topic', actions: [{ type: 'set_state', scope: 'user', key: HANDOFF_TOPIC_VARIABLE, value: event.topic ?? 0 }] };
  }
  if (!isHandedOff(state) || !context.handoff) return { ruleId: null, actions: [] };
  const actions: Action[] = [];
  // A customer who blocked the bot is not written to.
  if (ruleSet.handoffEnd && event.signal !== 'blocked') {
    const message = { message_id: 0, date: 0, chat: { id: customer, type: 'private', first_name: '' } } as Message;
    actions.push({ type: 'send_message', chatId: customer, text: render(ruleSet.handoffEnd, { message, vars: state }) });
  }
  const why = REASONS[event.signal] ?? `ended by ${event.by ?? 'staff'}`;
  return { ruleId: `handoff#${event.signal}`, actions: [...endHandoff(customer, state, context, why, event.signal !== 'idle'), ...actions] };
}

/**
 * The bot was blocked (my_chat_member) by a customer who is handed off: the hand-off ends at once, with one line
 * for staff and nothing to the customer. Nothing otherwise.
 */
export function endOnBlock(customer: number, state: Pick<ConversationState, 'user'>, context: DecideContext): Action[] {
  if (!context.handoff || !isHandedOff(state)) return [];
  return endHandoff(customer, state, context, REASONS.blocked!);
}

/**
 * Ending a customer's hand-off, in their turn: the state cleared, a line in the topic saying why (the topic is
 * then closed; without topics, a line in the staff group naming the customer) and, unless it is what fired, the
 * idle timer dropped.
 */
export function endHandoff(customer: number, state: Pick<ConversationState, 'user'>, context: DecideContext, why: string, cancelIdle = true): Action[] {
  const settings = context.handoff;
  if (!settings) return [];
  const actions: Action[] = [{ type: 'set_state', scope: 'user', key: HANDOFF_VARIABLE, value: null }];
  const topic = valueIn(state.user, HANDOFF_TOPIC_VARIABLE);
  const thread = typeof topic === 'number' && topic > 0 ? topic : undefined;
  const text = thread ? `Back with the bot (${why}).` : `Customer id ${customer} is back with the bot (${why}).`;
  const staffKey = `chat:${settings.chatId}`;
  const line = { chat_id: settings.chatId, text, ...(thread ? { message_thread_id: thread } : {}) };
  actions.push({ type: 'effect', kind: 'message', payload: { method: 'sendmessage', params: line }, orderKey: staffKey });
  if (thread) {
    const close = { chat_id: settings.chatId, message_thread_id: thread };
    actions.push({ type: 'effect', kind: 'message', payload: { method: 'closeforumtopic', params: close }, orderKey: staffKey });
  }
  // The idle timer itself is being performed when it ends the hand-off: only a staff end drops it.
  if (cancelIdle) actions.push({ type: 'cancel_effects', replaceKeys: [idleKey(customer)] });
  return actions;
}
