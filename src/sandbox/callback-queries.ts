// Presses of inline buttons: each becomes a `callback_query` update for the bot that sent the message, and
// stays open until the bot answers it (answercallbackquery) or it expires, as on the real service, after
// which an answer is refused ("query is too old ..."). The last press and its answer are kept on the message.
import { createHash, randomInt } from 'node:crypto';
import type { CallbackQuery, Message } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { userAsSender } from './chat-messages.js';
import type { MethodContext } from './method-context.js';
import type { ChatRef, PressView } from './message-meta.js';
import { booleanParam, stringParam, type Params } from './params.js';
import type { BotRecord, SandboxStore, SandboxUser } from './store.js';

/** How long a press waits for the bot's answer unless told otherwise (the real service's is not documented; about this). */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 15_000;
const MAX_ANSWER_TEXT = 200;
const QUERY_INVALID = 'query is too old and response timeout expired or query ID is invalid';

interface OpenQuery {
  bot: BotRecord;
  ref: ChatRef;
  messageId: number;
  view: PressView;
  timer: NodeJS.Timeout;
  waiters: Set<() => void>;
}

/** The open button presses of every bot, each until answered or expired. */
export class CallbackQueries {
  private readonly open = new Map<string, OpenQuery>();
  private nextId = BigInt(randomInt(1, 2 ** 40)) * 1_000_000n;

  constructor(
    private readonly store: SandboxStore,
    private readonly timeoutMs: number = DEFAULT_CALLBACK_TIMEOUT_MS,
  ) {}

  /** The user presses a callback button of `message` (sent by `bot`): queues the update and opens the query. */
  press(bot: BotRecord, ref: ChatRef, message: Message, user: SandboxUser, data: string): CallbackQuery {
    const id = String(this.nextId++);
    const query: CallbackQuery = {
      id,
      from: userAsSender(user),
      message: structuredClone(message) as CallbackQuery['message'] & Message,
      chat_instance: chatInstance(bot.id, message.chat.id),
      data,
    } as CallbackQuery;
    const view: PressView = { callback_query_id: id, data, from: user.id, status: 'pending' };
    const meta = this.store.messageMeta(ref, message.message_id);
    if (meta) meta.press = view;
    const timer = setTimeout(() => this.settle(id, { status: 'expired' }), this.timeoutMs);
    timer.unref();
    this.open.set(id, { bot, ref, messageId: message.message_id, view, timer, waiters: new Set() });
    this.store.changed(ref, 'press', message.message_id);
    bot.queue.pushCallbackQuery(query);
    return query;
  }

  /** answercallbackquery: the first answer of an open query from the bot it was sent to. */
  answer({ bot }: MethodContext, params: Params): true {
    const id = stringParam(params, 'callback_query_id') ?? '';
    const text = stringParam(params, 'text') ?? '';
    if ([...text].length > MAX_ANSWER_TEXT) throw badRequest('MESSAGE_TOO_LONG');
    const query = this.open.get(id);
    if (!query || query.bot.id !== bot.id) throw badRequest(QUERY_INVALID);
    const url = stringParam(params, 'url');
    this.settle(id, {
      status: 'answered',
      ...(text !== '' ? { text } : {}),
      ...(booleanParam(params, 'show_alert') ? { show_alert: true } : {}),
      ...(url ? { url } : {}),
    });
    return true;
  }

  /** Resolves when the press is answered or expires (at once if it already is), or after `timeoutMs`. */
  async settled(id: string, timeoutMs: number): Promise<void> {
    const query = this.open.get(id);
    if (!query) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        query.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      query.waiters.add(done);
    });
  }

  /** Forgets every open query (the sandbox is closing). */
  stopAll(): void {
    for (const query of this.open.values()) {
      clearTimeout(query.timer);
      for (const waiter of [...query.waiters]) waiter();
    }
    this.open.clear();
  }

  private settle(id: string, outcome: Partial<PressView> & { status: PressView['status'] }): void {
    const query = this.open.get(id);
    if (!query) return;
    this.open.delete(id);
    clearTimeout(query.timer);
    Object.assign(query.view, outcome);
    this.store.changed(query.ref, 'press', query.messageId);
    for (const waiter of [...query.waiters]) waiter();
  }
}

/** A stable, opaque identifier of the chat a button was pressed in, per bot, shaped like the real ones (a decimal number). */
function chatInstance(botId: number, chatId: number): string {
  const digest = createHash('sha256').update(`${botId}:${chatId}`).digest();
  return BigInt.asIntN(64, digest.readBigUInt64BE(0)).toString();
}
