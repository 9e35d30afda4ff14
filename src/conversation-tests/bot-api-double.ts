// An in-memory stand-in for the Bot API methods a bot under test calls (sendMessage, editMessageText,
// answerCallbackQuery): it records every call as an output, in order, and keeps each chat's messages with
// their keyboards (and the rule that sent each, for coverage) so that a test can press a button the bot showed.
// No network; message ids are numbered per chat as the service does, shared with the users' messages.
import type { InlineKeyboardMarkup, Message, ReplyKeyboardMarkup } from '@grammyjs/types';
import type { ReplyMarkup } from '../engine/actions.js';

/** One thing the bot did that a user could see (or that stops a button spinning). */
export type RecordedOutput =
  | {
      readonly kind: 'message';
      readonly chatId: number;
      readonly messageId: number;
      readonly text: string;
      readonly replyMarkup?: ReplyMarkup;
      readonly replyToMessageId?: number;
    }
  | { readonly kind: 'edit'; readonly chatId: number; readonly messageId: number; readonly text: string; readonly replyMarkup?: InlineKeyboardMarkup }
  | { readonly kind: 'answer'; readonly callbackQueryId: string; readonly text?: string; readonly showAlert?: boolean };

/** A message in a chat as the double keeps it (the bot's with their current text and keyboard). */
export interface ChatMessage {
  readonly message: Message;
  readonly fromBot: boolean;
  text: string;
  markup?: ReplyMarkup;
  /** The rule whose decision sent the message, or last edited it (and so put its buttons there), for coverage. */
  sentBy?: string | null;
}

/** An inline button found in a chat, with its place in its message's keyboard. */
export interface FoundButton {
  readonly message: ChatMessage;
  readonly data?: string;
  readonly row: number;
  readonly column: number;
}

export interface SendParams {
  chat_id: number | string;
  text: string;
  parse_mode?: string;
  disable_notification?: boolean;
  reply_parameters?: { message_id: number };
  reply_markup?: ReplyMarkup;
}

export interface EditParams {
  chat_id?: number | string;
  message_id?: number;
  text: string;
  parse_mode?: string;
  reply_markup?: InlineKeyboardMarkup;
}

export interface AnswerParams {
  callback_query_id: string;
  text?: string;
  show_alert?: boolean;
}

/** Thrown for a call the real service would refuse (so a bot bug shows as a failed step, not a silent pass). */
export class BotApiDoubleError extends Error {
  override readonly name = 'BotApiDoubleError';
}

export class BotApiDouble {
  readonly outputs: RecordedOutput[] = [];
  private readonly chats = new Map<number, ChatMessage[]>();
  private readonly lastIds = new Map<number, number>();
  private deciding: string | null = null;

  constructor(
    private readonly bot: { readonly id: number; readonly username: string; readonly first_name: string },
    private readonly clock: { readonly now: number },
  ) {}

  /** The next message id in a chat (users' and the bot's messages share the numbering). */
  nextMessageId(chatId: number): number {
    const id = (this.lastIds.get(chatId) ?? 0) + 1;
    this.lastIds.set(chatId, id);
    return id;
  }

  /** Names the rule whose decision the next calls perform (null: none matched), so each message knows who sent it. */
  attributeTo(ruleId: string | null): void {
    this.deciding = ruleId;
  }

  /** Remembers a user's message, so the bot can reply to it and the chat's history stays in order. */
  recordUserMessage(message: Message): void {
    this.history(message.chat.id).push({ message, fromBot: false, text: message.text ?? '' });
  }

  /** The chat's messages, oldest first. */
  history(chatId: number): ChatMessage[] {
    let list = this.chats.get(chatId);
    if (!list) this.chats.set(chatId, (list = []));
    return list;
  }

  async sendMessage(params: SendParams): Promise<Message.TextMessage> {
    const chatId = Number(params.chat_id);
    const known = this.history(chatId);
    const replyTo = params.reply_parameters ? known.find((m) => m.message.message_id === params.reply_parameters!.message_id) : undefined;
    const chat = known[0]?.message.chat ?? { id: chatId, type: 'private', first_name: '' };
    const message = {
      message_id: this.nextMessageId(chatId),
      date: Math.floor(this.clock.now / 1000),
      chat,
      from: { id: this.bot.id, is_bot: true, first_name: this.bot.first_name, username: this.bot.username },
      text: params.text,
      ...(replyTo ? { reply_to_message: replyTo.message } : {}),
      ...(params.reply_markup && 'inline_keyboard' in params.reply_markup ? { reply_markup: params.reply_markup } : {}),
    } as Message.TextMessage;
    known.push({ message, fromBot: true, text: params.text, sentBy: this.deciding, ...(params.reply_markup ? { markup: params.reply_markup } : {}) });
    this.outputs.push({
      kind: 'message',
      chatId,
      messageId: message.message_id,
      text: params.text,
      ...(params.reply_markup ? { replyMarkup: params.reply_markup } : {}),
      ...(replyTo ? { replyToMessageId: replyTo.message.message_id } : {}),
    });
    return message;
  }

  async editMessageText(params: EditParams): Promise<Message.TextMessage | true> {
    const chatId = Number(params.chat_id);
    const target = this.history(chatId).find((m) => m.message.message_id === params.message_id);
    if (!target || !target.fromBot) throw new BotApiDoubleError(`Bad Request: message to edit not found (chat ${chatId}, message ${params.message_id})`);
    target.text = params.text;
    target.sentBy = this.deciding;
    if (params.reply_markup) target.markup = params.reply_markup;
    else if (target.markup && 'inline_keyboard' in target.markup) delete target.markup;
    this.outputs.push({
      kind: 'edit',
      chatId,
      messageId: target.message.message_id,
      text: params.text,
      ...(params.reply_markup ? { replyMarkup: params.reply_markup } : {}),
    });
    return { ...target.message, text: params.text } as Message.TextMessage;
  }

  async answerCallbackQuery(params: AnswerParams): Promise<true> {
    this.outputs.push({
      kind: 'answer',
      callbackQueryId: params.callback_query_id,
      ...(params.text !== undefined ? { text: params.text } : {}),
      ...(params.show_alert ? { showAlert: true } : {}),
    });
    return true;
  }

  /** The newest of the bot's messages in the chat with an inline button matching, that button's callback data and place. */
  findInlineButton(chatId: number, by: 'text' | 'data', value: string): FoundButton | undefined {
    for (const entry of [...this.history(chatId)].reverse()) {
      if (!entry.fromBot || !entry.markup || !('inline_keyboard' in entry.markup)) continue;
      for (const [row, buttons] of entry.markup.inline_keyboard.entries()) {
        for (const [column, button] of buttons.entries()) {
          const data = 'callback_data' in button ? button.callback_data : undefined;
          if ((by === 'text' ? button.text : data) === value) return { message: entry, row, column, ...(data !== undefined ? { data } : {}) };
        }
      }
    }
    return undefined;
  }

  /** The reply keyboard the chat shows now: the newest bot message's keyboard, unless a later one removed it. */
  currentReplyKeyboard(chatId: number): ReplyKeyboardMarkup | undefined {
    for (const entry of [...this.history(chatId)].reverse()) {
      if (!entry.fromBot || !entry.markup) continue;
      if ('keyboard' in entry.markup) return entry.markup;
      if ('remove_keyboard' in entry.markup) return undefined;
    }
    return undefined;
  }
}
