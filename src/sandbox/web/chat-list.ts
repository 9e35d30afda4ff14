// The chats a page user sees: the assistant first, then every bot the sandbox knows, oldest first, then
// every group. The sandbox is a local playground, so a bot someone else created (the `hearsay start` demo
// bot) is listed too: that is the bot a user opening the page wants to talk to; a group the user is not in
// is listed so they can join it, or write in it as one of its people (a forum: as its staff).
import { ASSISTANT, type SandboxStore } from '../store.js';

export interface ChatListEntry {
  /** The bot's username; for a group, its chat id as text (the page keys chats by this). */
  username: string;
  name: string;
  kind: 'assistant' | 'bot' | 'group';
  /** True when the page's user created the bot. */
  mine: boolean;
  /** For a group: its chat id and whether the page's user is a member. */
  chatId?: number;
  member?: boolean;
  /** For a group: whether it has topics (a forum), and its people (not its bots), whom the page offers to write as. */
  forum?: boolean;
  people?: { id: number; first_name: string }[];
  /** For a bot: whether a program answers as it now (polls for its updates or has a webhook). */
  answering?: boolean;
}

export function chatList(store: SandboxStore, userId?: number): ChatListEntry[] {
  return [
    { username: ASSISTANT.username, name: ASSISTANT.name, kind: 'assistant', mine: false },
    ...store.allBots().map((bot) => ({
      username: bot.username,
      name: bot.name,
      kind: 'bot' as const,
      mine: bot.ownerId === userId,
      answering: store.presence.answering(bot),
    })),
    ...store.allGroups().map((group) => ({
      username: String(group.id),
      name: group.title,
      kind: 'group' as const,
      mine: false,
      chatId: group.id,
      member: userId !== undefined && group.memberIds.has(userId),
      forum: group.topics !== undefined,
      people: [...group.memberIds].flatMap((id) => {
        const person = store.user(id);
        return person ? [{ id: person.id, first_name: person.first_name }] : [];
      }),
    })),
  ];
}

/** Changes whenever a bot is added or renamed, or a group is created or its members change; cheap enough to compute on every message. */
export function chatListSignature(store: SandboxStore): string {
  const bots = store.allBots().map((bot) => `${bot.username}\u0000${bot.name}`);
  const groups = store.allGroups().map((group) => `${group.id}\u0000${group.title}\u0000${[...group.memberIds].join(',')}`);
  return [...bots, ...groups].join('\u0001');
}
