// What a chat shows besides its messages, for the client API and the page: the bot's chat action ("typing…")
// with the time it has left, the reply keyboard in force, the command menu for this user and the menu button.
import type { BotCommand } from '@grammyjs/types';
import { commandsShown, getChatMenuButton } from './command-methods.js';
import type { MethodContext } from './method-context.js';
import type { ChatRef } from './message-meta.js';
import type { SandboxStore } from './store.js';

export interface ChatState {
  action: { action: string; until: number; remaining_ms: number } | null;
  reply_keyboard: unknown;
  commands: BotCommand[];
  menu_button: Record<string, unknown> | null;
}

/** The state of chat `ref` as user `userId` sees it. */
export function chatStateOf(store: SandboxStore, ref: ChatRef, userId: number): ChatState {
  const bot = ref.peerId === undefined ? undefined : store.allBots().find((candidate) => candidate.id === ref.peerId);
  const action = store.shownAction(ref);
  const chatId = ref.groupId ?? userId;
  return {
    action: action ? { action: action.action, until: action.until, remaining_ms: Math.max(0, action.until - Date.now()) } : null,
    reply_keyboard: store.replyKeyboard(ref)?.markup ?? null,
    commands: bot ? commandsShown(bot, chatId, store.user(userId)?.language_code) : [],
    menu_button: bot ? getChatMenuButton({ bot } as MethodContext, { chat_id: String(chatId) }) : null,
  };
}
