// The chats a page user sees: the assistant first, then every bot the sandbox knows, oldest first.
// The sandbox is a local playground, so a bot someone else created (the `hearsay start` demo bot) is
// listed too: that is the bot a user opening the page wants to talk to.
import { ASSISTANT, type SandboxStore } from '../store.js';

export interface ChatListEntry {
  username: string;
  name: string;
  kind: 'assistant' | 'bot';
  /** True when the page's user created the bot. */
  mine: boolean;
}

export function chatList(store: SandboxStore, userId?: number): ChatListEntry[] {
  return [
    { username: ASSISTANT.username, name: ASSISTANT.name, kind: 'assistant', mine: false },
    ...store.allBots().map((bot) => ({ username: bot.username, name: bot.name, kind: 'bot' as const, mine: bot.ownerId === userId })),
  ];
}

/** Changes whenever a bot is added or renamed; cheap enough to compute on every message. */
export function chatListSignature(store: SandboxStore): string {
  return store
    .allBots()
    .map((bot) => `${bot.username}\u0000${bot.name}`)
    .join('\u0001');
}
