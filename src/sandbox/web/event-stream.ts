// Server-Sent Events for the page: `hello` first (this sandbox instance's id, so a page notices a restarted
// sandbox, and the chat to open), `message` for every message stored in one user's chats (both directions,
// as the client API shows them: any reply markup, edits, the last press), `changed` when one is edited,
// pressed, answered or deleted, `chat` with what the chat shows besides messages (typing, reply keyboard,
// command menu), for private chats and the groups the user is in, `bots` whenever the chat list changes (bots, groups, membership), `rules` when a bot's rules break or are fixed, and a heartbeat.
import type { ServerResponse } from 'node:http';
import type { Message } from '@grammyjs/types';
import type { FastifyReply } from 'fastify';
import { chatStateOf } from '../chat-state.js';
import { clientMessage, type DeletedMessage } from '../client-view.js';
import type { ChatChangeEvent, ChatRef } from '../message-meta.js';
import type { SandboxStore, StoredMessageEvent } from '../store.js';
import { chatList, chatListSignature } from './chat-list.js';
import type { PageNotices } from './page-notices.js';

type EventWriter = (event: string, data: unknown) => void;

/** Takes the response over from Fastify as an event stream (headers, reconnection delay) and gives its writer. */
function beginEventStream(reply: FastifyReply): { response: ServerResponse; write: EventWriter } {
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies such as nginx would otherwise buffer the stream.
    'x-accel-buffering': 'no',
  });
  const write: EventWriter = (event, data) => {
    response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  response.write('retry: 2000\n\n');
  return { response, write };
}

/** The chat an event belongs to, as the store addresses it. */
const refOf = (event: StoredMessageEvent | ChatChangeEvent): ChatRef =>
  event.groupId === undefined ? { userId: event.userId, peer: event.peer, peerId: event.peerId } : { userId: event.groupId, peer: '', groupId: event.groupId };

/** The page keys a group's chat by its id as text (see chat-list). */
const keyOf = (event: StoredMessageEvent | ChatChangeEvent): string => (event.groupId === undefined ? event.peer : String(event.groupId));

interface OpenStream {
  response: ServerResponse;
  close(): void;
}

export class EventStreams {
  private readonly open_ = new Set<OpenStream>();

  constructor(
    private readonly store: SandboxStore,
    private readonly onMessage: (listener: (event: StoredMessageEvent) => void) => () => void,
    private readonly heartbeatMs: number,
    private readonly instance: string,
    private readonly notices: PageNotices,
  ) {}

  get size(): number {
    return this.open_.size;
  }

  open(userId: number, reply: FastifyReply): void {
    const { response, write } = beginEventStream(reply);
    const hello = () => write('hello', { instance: this.instance, home: this.notices.home ?? null });
    hello();
    write('bots', { bots: chatList(this.store, userId) });
    for (const status of this.store.reports.ruleStatuses()) write('rules', status);
    const stopHome = this.notices.onHome(hello);
    const stopRules = this.store.reports.onRules((status) => write('rules', status));
    // A bot that starts or stops being answered changes how the list shows it (see bot-presence.ts).
    const stopPresence = this.store.presence.onChange(() => write('bots', { bots: chatList(this.store, userId) }));
    const stopChats = this.followChats(userId, write);
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), this.heartbeatMs);

    const stream: OpenStream = {
      response,
      close: () => {
        if (!this.open_.delete(stream)) return;
        clearInterval(heartbeat);
        stopChats();
        stopHome();
        stopRules();
        stopPresence();
        if (!response.writableEnded) response.end();
      },
    };
    this.open_.add(stream);
    // The response closes when the browser goes away (the request's own 'close' fires once its body is read).
    response.on('close', stream.close);
  }

  /** Writes `bots`, `message`, `chat` and `changed` events as the user's chats change; returns a function that stops. */
  private followChats(userId: number, write: EventWriter): () => void {
    let signature = chatListSignature(this.store);
    const writeState = (event: StoredMessageEvent | ChatChangeEvent) =>
      write('chat', { peer: keyOf(event), state: chatStateOf(this.store, refOf(event), userId) });
    const unsubscribe = this.onMessage((event) => {
      // A chat list change (a new bot, a join) goes first, so the page knows the chat the message belongs to.
      // A bot is created inside the assistant's conversation, just before its answer is stored, so
      // checking on every stored message announces a new bot within the same turn.
      const current = chatListSignature(this.store);
      if (current !== signature) {
        signature = current;
        write('bots', { bots: chatList(this.store, userId) });
      }
      if (this.concerns(event, userId)) {
        write('message', { peer: keyOf(event), message: clientMessage(this.store, refOf(event), event.message) });
        writeState(event);
      }
    });
    const stopChanges = this.store.onChange((event) => {
      if (!this.concerns(event, userId)) return;
      const ref = refOf(event);
      if (event.kind === 'action') return writeState(event);
      if (event.messageId === undefined) return;
      const message = this.changedMessage(ref, event.messageId);
      // A deletion carries its change counter too, as GET /client/messages?changed_after= reports it: the page then
      // knows an older copy of the message (a history read that crossed this event) for what it is.
      const deleted: DeletedMessage = { message_id: event.messageId, deleted: true, revision: event.revision };
      write('changed', { peer: keyOf(event), message: message ? clientMessage(this.store, ref, message) : deleted });
    });
    return () => {
      unsubscribe();
      stopChanges();
    };
  }

  /** Whether the page user sees this chat event: their own private chats, groups they are in, and their own leaving. */
  private concerns(event: StoredMessageEvent | ChatChangeEvent, userId: number): boolean {
    if (event.groupId === undefined) return event.userId === userId;
    if (this.store.group(event.groupId)?.memberIds.has(userId)) return true;
    return 'message' in event && event.message.left_chat_member?.id === userId;
  }

  private changedMessage(ref: ChatRef, messageId: number): Message | undefined {
    if (ref.groupId !== undefined) return this.store.groupMessages(ref.groupId).find((message) => message.message_id === messageId);
    return ref.peerId === undefined ? undefined : this.store.findMessage(ref.userId, ref.peerId, messageId);
  }

  closeAll(): void {
    for (const stream of [...this.open_]) stream.close();
  }
}
