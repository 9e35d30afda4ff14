// One chat's messages as the Bot API double keeps them, and what the test runner looks up at each step kept
// current as messages arrive: a message by id, the bot's latest message, the reply keyboard shown, the
// force_reply question each user's app is answering, the newest message with each inline button. A step then
// costs the same at step 40,000 as at step 1 (walking the history at every step made a long test quadratic).
import type { ForceReply, InlineKeyboardMarkup, Message, ReplyKeyboardMarkup } from '@grammyjs/types';
import type { ReplyMarkup } from '../engine/actions.js';

/** A message in a chat as the double keeps it (the bot's with their current text and keyboard). */
export interface ChatMessage {
  readonly message: Message;
  readonly fromBot: boolean;
  text: string;
  markup?: ReplyMarkup;
  /** The rule whose decision sent the message, or last edited it (and so put its buttons there), for coverage. */
  sentBy?: string | null;
  /** The rules a suggestion message offers, by id, in the order of its buttons. */
  suggestions?: readonly string[];
}

/** An inline button found in a chat, with its place in its message's keyboard. */
export interface FoundButton {
  readonly message: ChatMessage;
  readonly data?: string;
  readonly row: number;
  readonly column: number;
}

/** Counts the history entries look-ups examine, so a test can show that a step's cost does not grow with the chat. */
export interface LookupCounter {
  entriesVisited: number;
}

type ButtonKey = `${'text' | 'data'}:${string}`;

export class ChatHistory {
  /** Oldest first. */
  readonly messages: ChatMessage[] = [];
  private readonly byId = new Map<number, ChatMessage>();
  private latestFromBot: ChatMessage | undefined;
  private replyKeyboard: ReplyKeyboardMarkup | undefined;
  /** The newest force_reply question for everyone, and per user the newest one that replies to them (selective). */
  private questionForAll: ChatMessage | undefined;
  private readonly questionFor = new Map<number, ChatMessage>();
  /** Per user, the id of their latest message: a question older than it is answered or abandoned. */
  private readonly lastWrote = new Map<number, number>();
  /** Per button (by text and by data), the messages that were given it, oldest first; some may have lost it since. */
  private readonly holders = new Map<ButtonKey, ChatMessage[]>();
  private readonly filed = new WeakMap<ChatMessage, Set<ButtonKey>>();

  constructor(private readonly counter: LookupCounter) {}

  /** Appends a message; the bot's keyboard and force_reply take effect as a user's app applies them, on arrival. */
  add(entry: ChatMessage): void {
    this.messages.push(entry);
    this.byId.set(entry.message.message_id, entry);
    if (!entry.fromBot) {
      if (entry.message.from) this.lastWrote.set(entry.message.from.id, entry.message.message_id);
      return;
    }
    this.latestFromBot = entry;
    const markup = entry.markup;
    if (!markup) return;
    if ('keyboard' in markup) this.replyKeyboard = markup;
    else if ('remove_keyboard' in markup) this.replyKeyboard = undefined;
    else if ('inline_keyboard' in markup) this.fileButtons(entry, markup);
    else this.noteQuestion(entry, markup);
  }

  /** The message with this id. */
  get(messageId: number): ChatMessage | undefined {
    return this.byId.get(messageId);
  }

  /** Gives one of the bot's messages a new inline keyboard (or none), as an edit does. */
  setInlineKeyboard(entry: ChatMessage, markup: InlineKeyboardMarkup | undefined): void {
    if (markup) {
      entry.markup = markup;
      this.fileButtons(entry, markup);
    } else if (entry.markup && 'inline_keyboard' in entry.markup) delete entry.markup;
  }

  latestBotMessage(): Message | undefined {
    return this.latestFromBot?.message;
  }

  /** The reply keyboard the chat shows now: the newest one the bot sent, unless a later message removed it. */
  currentReplyKeyboard(): ReplyKeyboardMarkup | undefined {
    return this.replyKeyboard;
  }

  /**
   * The bot's force_reply question this user's app is still answering: the newest one for them (selective:
   * replying to their message) since they last wrote in the chat; answering it ends reply mode.
   */
  pendingQuestion(userId: number): Message | undefined {
    const since = this.lastWrote.get(userId) ?? 0;
    const own = this.questionFor.get(userId);
    const all = this.questionForAll;
    const newest = own && all ? (own.message.message_id > all.message.message_id ? own : all) : (own ?? all);
    return newest && newest.message.message_id > since ? newest.message : undefined;
  }

  /** The newest of the bot's messages with an inline button matching, that button's callback data and place. */
  findInlineButton(by: 'text' | 'data', value: string): FoundButton | undefined {
    const key: ButtonKey = `${by}:${value}`;
    const list = this.holders.get(key);
    while (list && list.length > 0) {
      const entry = list[list.length - 1]!;
      this.counter.entriesVisited += 1;
      const found = buttonIn(entry, by, value);
      if (found) return found;
      // Edited away since: never a candidate again unless an edit gives it back (then it is filed again).
      list.pop();
      this.filed.get(entry)?.delete(key);
    }
    return undefined;
  }

  /**
   * The callback data of the button offering rule `ruleId` on the bot's newest suggestion message that offers it
   * (`suggest:` puts one suggestion per row, in the order of the message's suggestions).
   */
  suggestionData(ruleId: string): string | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const entry = this.messages[i]!;
      this.counter.entriesVisited += 1;
      const row = entry.fromBot && entry.suggestions ? entry.suggestions.indexOf(ruleId) : -1;
      if (row < 0 || !entry.markup || !('inline_keyboard' in entry.markup)) continue;
      const button = entry.markup.inline_keyboard[row]?.[0];
      if (button && 'callback_data' in button) return button.callback_data;
    }
    return undefined;
  }

  /** The rules offered by the bot's suggestion messages in this chat, for a message saying which there are. */
  suggestionsOffered(): string[] {
    return [...new Set(this.messages.flatMap((entry) => (entry.fromBot ? (entry.suggestions ?? []) : [])))];
  }

  /** The texts of every inline button on the bot's messages, for a message saying which buttons there are. */
  inlineButtonTexts(): string[] {
    const texts = new Set<string>();
    for (const entry of this.messages) {
      this.counter.entriesVisited += 1;
      if (entry.fromBot && entry.markup && 'inline_keyboard' in entry.markup) for (const b of entry.markup.inline_keyboard.flat()) texts.add(b.text);
    }
    return [...texts];
  }

  private noteQuestion(entry: ChatMessage, markup: ForceReply): void {
    if (!markup.selective) this.questionForAll = entry;
    else {
      const to = entry.message.reply_to_message?.from?.id;
      if (to !== undefined) this.questionFor.set(to, entry);
    }
  }

  /** Files the message under each of its buttons' texts and data, keeping each list in message order. */
  private fileButtons(entry: ChatMessage, markup: InlineKeyboardMarkup): void {
    let filed = this.filed.get(entry);
    if (!filed) this.filed.set(entry, (filed = new Set()));
    for (const button of markup.inline_keyboard.flat()) {
      const keys: ButtonKey[] = [`text:${button.text}`];
      if ('callback_data' in button) keys.push(`data:${button.callback_data}`);
      for (const key of keys) {
        if (filed.has(key)) continue;
        filed.add(key);
        let list = this.holders.get(key);
        if (!list) this.holders.set(key, (list = []));
        insertInOrder(list, entry);
      }
    }
  }
}

/** Where `entry` has the button, by its text or data (the first in reading order). */
function buttonIn(entry: ChatMessage, by: 'text' | 'data', value: string): FoundButton | undefined {
  if (!entry.markup || !('inline_keyboard' in entry.markup)) return undefined;
  for (const [row, buttons] of entry.markup.inline_keyboard.entries()) {
    for (const [column, button] of buttons.entries()) {
      const data = 'callback_data' in button ? button.callback_data : undefined;
      if ((by === 'text' ? button.text : data) === value) return { message: entry, row, column, ...(data !== undefined ? { data } : {}) };
    }
  }
  return undefined;
}

/** Inserts by message id: a new message goes last at once; an edited older one is placed by binary search. */
function insertInOrder(list: ChatMessage[], entry: ChatMessage): void {
  const id = entry.message.message_id;
  if (list.length === 0 || list[list.length - 1]!.message.message_id < id) {
    list.push(entry);
    return;
  }
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid]!.message.message_id < id) low = mid + 1;
    else high = mid;
  }
  list.splice(low, 0, entry);
}
