// The user presses buttons: POST /client/press names a message and one of its inline buttons (by callback data
// or label); a callback button becomes a callback_query for the bot, a label of the reply keyboard in force is
// sent as the user's message. GET /client/chat-state shows what a chat shows besides messages: the bot's chat
// action ("typing…"), the reply keyboard in force, the command menu and the menu button.
import type { InlineKeyboardButton, Message } from '@grammyjs/types';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { badRequest } from './api-failure.js';
import type { CallbackQueries } from './callback-queries.js';
import { storeUserMessage } from './chat-messages.js';
import { textContent } from './user-content.js';
import { chatStateOf } from './chat-state.js';
import { memberGroup, postInGroup } from './group-routes.js';
import type { ChatRef } from './message-meta.js';
import type { BotRecord, SandboxStore, SandboxUser } from './store.js';

const MAX_WAIT_SECONDS = 60;

export interface PressRoutesOptions {
  store: SandboxStore;
  callbacks: CallbackQueries;
  readUser(value: unknown): SandboxUser;
  readChat(store: SandboxStore, query: Record<string, unknown>, userId: number): { ref: ChatRef; all: () => Message[] };
  closeListener(reply: FastifyReply): (listener: () => void) => () => void;
}

interface Candidate {
  ref: ChatRef;
  message: Message;
  /** The bot that sent the message. */
  bot: BotRecord;
}

/** Registers POST /client/press and GET /client/chat-state. */
export async function pressRoutes(app: FastifyInstance, options: PressRoutesOptions): Promise<void> {
  const { store, callbacks, readUser } = options;

  app.post('/client/press', async (request) => {
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    const user = store.rememberUser(readUser(body.user));
    const messageId = body.message_id;
    if (typeof messageId !== 'number' || !Number.isSafeInteger(messageId) || messageId <= 0) throw badRequest('message_id must be a positive integer');
    const data = optionalString(body.data, 'data');
    const label = optionalString(body.text, 'text');
    if (data === undefined && label === undefined) throw badRequest('name the button by its callback "data" or its "text" (label)');
    const wait = body.wait === undefined ? 0 : Math.min(Math.max(0, Number(body.wait) || 0), MAX_WAIT_SECONDS);

    const candidates = candidatesFor(store, body, user, messageId);
    const matches = candidates.flatMap((candidate) => {
      const button = inlineButtons(candidate.message).find(
        (b) => (data === undefined || callbackData(b) === data) && (label === undefined || b.text === label),
      );
      return button ? [{ ...candidate, button }] : [];
    });
    if (matches.length > 1) throw badRequest(`message ${messageId} is in several chats of this user; name the bot with "to"`);
    const match = matches[0];
    if (!match) return pressReplyKeyboard(store, candidates, user, messageId, data, label);

    const { button, bot, ref, message } = match;
    if ('url' in button) return { ok: true, result: { url: button.url } };
    if ('copy_text' in button) return { ok: true, result: { copied_text: button.copy_text.text } };
    const pressedData = callbackData(button);
    if (pressedData === undefined) throw badRequest(`the sandbox cannot press this kind of button (${Object.keys(button).join(', ')})`);
    const query = callbacks.press(bot, ref, message, user, pressedData);
    if (wait > 0) await callbacks.settled(query.id, wait * 1000);
    const answer = store.messageMeta(ref, messageId)?.press;
    return { ok: true, result: { callback_query_id: query.id, chat_id: message.chat.id, message_id: messageId, ...(wait > 0 ? { answer } : {}) } };
  });

  app.get('/client/chat-state', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const userId = Number(query.user);
    if (!Number.isSafeInteger(userId) || userId <= 0) throw badRequest('user must be a positive integer');
    const { ref } = options.readChat(store, query, userId);
    return { ok: true, result: chatStateOf(store, ref, userId) };
  });
}

/** The chats where the user may mean message `messageId`: the group named by `chat`, the bot named by `to`, or all the user's bot chats. */
function candidatesFor(store: SandboxStore, body: Record<string, unknown>, user: SandboxUser, messageId: number): Candidate[] {
  const botById = (id: number | undefined) => store.allBots().find((bot) => bot.id === id);
  const fromBot = (ref: ChatRef, message: Message | undefined): Candidate[] => {
    const bot = botById(message?.from?.id);
    return message && bot ? [{ ref, message, bot }] : [];
  };
  if (body.chat !== undefined) {
    const group = memberGroup(store, body.chat, user.id);
    const message = store.groupMessages(group.id).find((candidate) => candidate.message_id === messageId);
    if (!message) throw badRequest(`there is no message ${messageId} in the group ${group.id}`);
    return fromBot({ userId: group.id, peer: '', groupId: group.id }, message);
  }
  const bots = body.to === undefined ? store.allBots() : [store.peerByUsername(String(body.to))?.bot].filter((bot) => bot !== undefined);
  if (body.to !== undefined && bots.length === 0) throw badRequest(`there is no bot with the username @${String(body.to).replace(/^@/, '')}`);
  const found = bots.flatMap((bot) =>
    fromBot({ userId: user.id, peer: bot.username, peerId: bot.id }, store.findMessage(user.id, bot.id, messageId)).filter(
      (candidate) => candidate.bot.id === bot.id,
    ),
  );
  if (found.length === 0) throw badRequest(`there is no message ${messageId} from a bot in the chats of user ${user.id}`);
  return found;
}

/** A label of the reply keyboard in force is sent as the user's message, as tapping it does in the apps. */
function pressReplyKeyboard(store: SandboxStore, candidates: Candidate[], user: SandboxUser, messageId: number, data?: string, label?: string) {
  const describe = data !== undefined ? `callback data "${data}"` : `the label "${label}"`;
  const withKeyboard = candidates.filter((candidate) => {
    const keyboard = store.replyKeyboard(candidate.ref);
    return label !== undefined && keyboard?.kind === 'keyboard' && keyboard.markup.keyboard.flat().some((b) => (typeof b === 'string' ? b : b.text) === label);
  });
  const target = withKeyboard[0];
  if (!target || label === undefined || data !== undefined) throw badRequest(`message ${messageId} has no button with ${describe}`);
  if (target.ref.groupId !== undefined) {
    const message = postInGroup(store, store.group(target.ref.groupId)!, user, textContent(label));
    return { ok: true, result: { message_id: message.message_id, chat_id: message.chat.id } };
  }
  const peer = { id: target.bot.id, name: target.bot.name, username: target.bot.username, bot: target.bot };
  const message = storeUserMessage(store, user, peer, textContent(label));
  target.bot.queue.push(message);
  return { ok: true, result: { message_id: message.message_id, chat_id: message.chat.id } };
}

function inlineButtons(message: Message): InlineKeyboardButton[] {
  return (message as Message & { reply_markup?: { inline_keyboard?: InlineKeyboardButton[][] } }).reply_markup?.inline_keyboard?.flat() ?? [];
}

function callbackData(button: InlineKeyboardButton): string | undefined {
  return 'callback_data' in button ? button.callback_data : undefined;
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw badRequest(`${name} must be a non-empty string`);
  return value;
}
