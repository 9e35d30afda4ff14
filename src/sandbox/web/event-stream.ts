// Server-Sent Events for the page: `message` for every message stored in one user's chats (both
// directions), `bots` whenever the chat list changes, and a heartbeat comment on idle streams.
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { SandboxStore, StoredMessageEvent } from '../store.js';
import { chatList, chatListSignature } from './chat-list.js';

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
  ) {}

  get size(): number {
    return this.open_.size;
  }

  open(userId: number, reply: FastifyReply): void {
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Proxies such as nginx would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    const write = (event: string, data: unknown): void => {
      response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    response.write('retry: 2000\n\n');
    write('bots', { bots: chatList(this.store, userId) });

    let signature = chatListSignature(this.store);
    const unsubscribe = this.onMessage((event) => {
      if (event.userId === userId) write('message', { peer: event.peer, message: event.message });
      // A bot is created inside the assistant's conversation, just before its answer is stored, so
      // checking on every stored message announces a new bot within the same turn.
      const current = chatListSignature(this.store);
      if (current !== signature) {
        signature = current;
        write('bots', { bots: chatList(this.store, userId) });
      }
    });
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), this.heartbeatMs);

    const stream: OpenStream = {
      response,
      close: () => {
        if (!this.open_.delete(stream)) return;
        clearInterval(heartbeat);
        unsubscribe();
        if (!response.writableEnded) response.end();
      },
    };
    this.open_.add(stream);
    // The response closes when the browser goes away (the request's own 'close' fires once its body is read).
    response.on('close', stream.close);
  }

  closeAll(): void {
    for (const stream of [...this.open_]) stream.close();
  }
}
