// The forum side of the Bot API double, for hand-off tests: topics in a supergroup with topics (created,
// closed, reopened, with the service's refusals the bot relies on) and the copies and forwards a hand-off makes
// between chats. A topic's creation is a service message every bot of the group receives, as on the service: it
// is queued as an update (the double's serviceUpdates), which the driver hands in after the effect that created it.
import type { Message, Update, User } from '@grammyjs/types';
import { BotApiDoubleError, type SendParams } from './bot-api-double.js';
import type { ChatHistory } from './chat-history.js';

/** What the forum needs of the double it is part of. */
export interface ForumHost {
  readonly bot: User;
  nextMessageId(chatId: number): number;
  nextUpdateId(): number;
  history(chatId: number): ChatHistory;
  date(): number;
  sendMessage(params: SendParams): Promise<Message.TextMessage>;
  /** Service messages for the bot, until the driver hands them in. */
  readonly serviceUpdates: Update[];
}

interface Topic {
  readonly name: string;
  closed: boolean;
}

type Params = Record<string, unknown>;

export class ForumDouble {
  /** The chats that are supergroups with topics. */
  readonly forums = new Set<number>();
  private readonly topics = new Map<string, Topic>();

  constructor(private readonly host: ForumHost) {}

  /** The forum and copy methods by name; undefined for any other method. */
  call(method: string, params: Params): Promise<unknown> | undefined {
    switch (method) {
      case 'createforumtopic':
        return Promise.resolve().then(() => this.create(Number(params.chat_id), String(params.name)));
      case 'closeforumtopic':
      case 'reopenforumtopic':
        return Promise.resolve().then(() => this.setClosed(Number(params.chat_id), Number(params.message_thread_id), method === 'closeforumtopic'));
      case 'copymessage':
        return this.copy(params);
      case 'forwardmessages':
        return this.forward(params);
      default:
        return undefined;
    }
  }

  /** The thread of the topic in `chatId` whose name ends with `#<userId>` (how the hand-off names a customer's topic). */
  topicOfUser(chatId: number, userId: number): number | undefined {
    for (const [key, topic] of this.topics) {
      const [chat, thread] = key.split(':').map(Number);
      if (chat === chatId && topic.name.endsWith(`#${userId}`)) return thread;
    }
    return undefined;
  }

  /** The name of a topic, if the chat has it. */
  topicName(chatId: number, thread: number): string | undefined {
    return this.topics.get(`${chatId}:${thread}`)?.name;
  }

  private create(chatId: number, name: string): { message_thread_id: number; name: string; icon_color: number } {
    if (!this.forums.has(chatId)) throw new BotApiDoubleError('Bad Request: the chat is not a forum');
    const thread = this.host.nextMessageId(chatId);
    const known = this.host.history(chatId).messages[0]?.message.chat;
    const chat = { id: chatId, type: 'supergroup', title: known && 'title' in known ? known.title : '', is_forum: true };
    const created = { name, icon_color: 7322096 };
    const message = {
      message_id: thread,
      date: this.host.date(),
      chat,
      from: this.host.bot,
      message_thread_id: thread,
      is_topic_message: true,
      forum_topic_created: created,
    } as unknown as Message;
    this.host.history(chatId).add({ message, fromBot: true, text: '' });
    this.topics.set(`${chatId}:${thread}`, { name, closed: false });
    this.host.serviceUpdates.push({ update_id: this.host.nextUpdateId(), message } as Update);
    return { message_thread_id: thread, ...created };
  }

  private setClosed(chatId: number, thread: number, closed: boolean): true {
    const topic = this.topics.get(`${chatId}:${thread}`);
    if (!topic) throw new BotApiDoubleError('Bad Request: message thread not found');
    if (topic.closed === closed) throw new BotApiDoubleError('Bad Request: TOPIC_NOT_MODIFIED');
    topic.closed = closed;
    return true;
  }

  /** A copy of one of a chat's messages (its text, or the caption given), in another chat or topic. */
  private async copy(params: Params): Promise<{ message_id: number }> {
    const source = this.host.history(Number(params.from_chat_id)).get(Number(params.message_id));
    if (!source) throw new BotApiDoubleError('Bad Request: message to copy not found');
    const text = typeof params.caption === 'string' ? params.caption : source.text;
    const sent = await this.host.sendMessage({ chat_id: Number(params.chat_id), text, ...threadOf(params) });
    return { message_id: sent.message_id };
  }

  /** Forwards of a chat's messages that exist (others are skipped, as the service does), in order. */
  private async forward(params: Params): Promise<Array<{ message_id: number }>> {
    const from = this.host.history(Number(params.from_chat_id));
    const sent: Array<{ message_id: number }> = [];
    for (const id of (params.message_ids as number[] | undefined) ?? []) {
      const source = from.get(id);
      if (!source || source.text === '') continue;
      const message = await this.host.sendMessage({ chat_id: Number(params.chat_id), text: source.text, ...threadOf(params) });
      sent.push({ message_id: message.message_id });
    }
    return sent;
  }
}

function threadOf(params: Params): { message_thread_id?: number } {
  return typeof params.message_thread_id === 'number' ? { message_thread_id: params.message_thread_id } : {};
}
