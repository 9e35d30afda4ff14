// Messages as the user's client sees them: the Bot API Message plus its reply markup of any kind, its earlier
// versions after edits, the last button press with its answer, and the chat's change counter (`revision`) at
// its last change, so a reader can ask for what changed since (`changed_after`), deletions included.
import type { Message } from '@grammyjs/types';
import type { ChatRef, MessageMeta } from './message-meta.js';
import type { SandboxStore, StoredMessageEvent } from './store.js';

/** A message as GET /client/messages returns it. */
export type ClientMessage = Message & { revision?: number; edits?: MessageMeta['edits']; callback_answer?: MessageMeta['press']; why?: MessageMeta['why'] };

/** A deleted message, as GET /client/messages?changed_after= reports it. */
export interface DeletedMessage {
  message_id: number;
  deleted: true;
  revision: number;
}

/** `message` with what the client sees beside it (see ClientMessage). */
export function clientMessage(store: SandboxStore, ref: ChatRef, message: Message): ClientMessage {
  const meta = store.messageMeta(ref, message.message_id);
  if (!meta) return message;
  return {
    ...message,
    ...(meta.markup ? { reply_markup: meta.markup.markup } : {}),
    ...(meta.edits.length > 0 ? { edits: meta.edits } : {}),
    ...(meta.press ? { callback_answer: meta.press } : {}),
    ...(meta.why ? { why: meta.why } : {}),
    revision: meta.revision,
  } as ClientMessage;
}

/** Every message stored, edited, pressed or deleted after `revision`, by message id. */
export function changedSince(store: SandboxStore, ref: ChatRef, messages: Message[], revision: number): Array<ClientMessage | DeletedMessage> {
  const byId = new Map(messages.map((message) => [message.message_id, message]));
  const changed: Array<ClientMessage | DeletedMessage> = [];
  for (const [messageId, meta] of store.chatMeta(ref)) {
    if (meta.revision <= revision) continue;
    const message = byId.get(messageId);
    if (message) changed.push(clientMessage(store, ref, message));
    else if (meta.deleted) changed.push({ message_id: messageId, deleted: true, revision: meta.revision });
  }
  return changed.sort((a, b) => a.message_id - b.message_id);
}

/** True when an event concerns the chat `ref`. */
export function sameChat(event: Pick<StoredMessageEvent, 'userId' | 'peer' | 'groupId'>, ref: ChatRef): boolean {
  if (ref.groupId !== undefined || event.groupId !== undefined) return event.groupId === ref.groupId;
  return event.userId === ref.userId && event.peer.toLowerCase() === ref.peer.toLowerCase();
}

/** Waits until a message is stored or something changes in the chat, `timeoutMs` passes or the reader goes away. */
export function waitForChatChange(store: SandboxStore, ref: ChatRef, timeoutMs: number, onClose: (listener: () => void) => () => void): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      stopMessages();
      stopChanges();
      stopClose();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    const stopMessages = store.onMessage((event) => {
      if (sameChat(event, ref)) done();
    });
    const stopChanges = store.onChange((event) => {
      if (sameChat(event, ref)) done();
    });
    const stopClose = onClose(done);
  });
}
