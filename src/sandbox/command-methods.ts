// setmycommands, getmycommands, deletemycommands (per scope and language, with the real service's checks and
// descriptions), setchatmenubutton and getchatmenubutton; and the command list a user sees in a chat, which
// the real apps pick by scope: the chat's own, then all private or all group chats, then the default.
import type { BotCommand } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import type { MethodContext } from './method-context.js';
import { stringParam, type Params } from './params.js';
import type { BotRecord } from './store.js';

const MAX_COMMANDS = 100;
const MAX_COMMAND_LENGTH = 32;
const MAX_DESCRIPTION_LENGTH = 256;
const COMMAND = /^[a-z0-9_]+$/;
const SCOPES_WITH_CHAT = new Set(['chat', 'chat_administrators', 'chat_member']);
const SCOPES = new Set(['default', 'all_private_chats', 'all_group_chats', 'all_chat_administrators', ...SCOPES_WITH_CHAT]);

/** setmycommands: replaces the list of one scope and language (an empty list clears it). */
export function setMyCommands({ bot }: MethodContext, params: Params): true {
  const commands = readCommands(params.commands);
  bot.commands.set(`${scopeKey(params.scope)}|${languageCode(params)}`, commands);
  return true;
}

/** getmycommands: the list of one scope and language, exactly as set. */
export function getMyCommands({ bot }: MethodContext, params: Params): BotCommand[] {
  return bot.commands.get(`${scopeKey(params.scope)}|${languageCode(params)}`) ?? [];
}

/** deletemycommands: clears the list of one scope and language. */
export function deleteMyCommands({ bot }: MethodContext, params: Params): true {
  bot.commands.delete(`${scopeKey(params.scope)}|${languageCode(params)}`);
  return true;
}

/** setchatmenubutton: the menu button of one chat, or the default one without chat_id. */
export function setChatMenuButton({ bot }: MethodContext, params: Params): true {
  const chatId = stringParam(params, 'chat_id') ?? '';
  const raw = parsed(params.menu_button, "can't parse menu button JSON object");
  if (raw === undefined) {
    bot.menuButtons.delete(chatId);
    return true;
  }
  if (!isObject(raw)) throw badRequest("can't parse menu button: MenuButton must be an Object");
  const type = raw.type;
  if (typeof type !== 'string') throw badRequest(`can't parse menu button: Can't find field "type"`);
  if (!['default', 'commands', 'web_app'].includes(type)) throw badRequest("can't parse menu button: Unsupported type specified");
  if (type === 'web_app' && (typeof raw.text !== 'string' || raw.text.trim() === '')) throw badRequest('menu button text must be non-empty');
  bot.menuButtons.set(chatId, type === 'web_app' ? { type, text: raw.text, web_app: raw.web_app } : { type });
  return true;
}

/** getchatmenubutton: the chat's menu button, else the default one, else `{"type": "default"}`. */
export function getChatMenuButton({ bot }: MethodContext, params: Params): Record<string, unknown> {
  const chatId = stringParam(params, 'chat_id') ?? '';
  return bot.menuButtons.get(chatId) ?? bot.menuButtons.get('') ?? { type: 'default' };
}

/** The commands a user sees in a chat with the bot, in the user's language when the bot set some for it. */
export function commandsShown(bot: BotRecord, chatId: number, languageCode: string | undefined): BotCommand[] {
  const scopes = chatId > 0 ? [`chat:${chatId}`, 'all_private_chats', 'default'] : [`chat:${chatId}`, 'all_group_chats', 'default'];
  for (const scope of scopes) {
    for (const language of languageCode ? [languageCode, ''] : ['']) {
      const commands = bot.commands.get(`${scope}|${language}`);
      if (commands && commands.length > 0) return commands;
    }
  }
  return [];
}

function readCommands(raw: unknown): BotCommand[] {
  const value = parsed(raw, "can't parse commands JSON object");
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badRequest('expected an Array of BotCommand');
  const commands = value.map((entry: unknown) => readCommand(entry));
  if (commands.length > MAX_COMMANDS) throw badRequest('BOT_COMMANDS_TOO_MUCH');
  return commands;
}

function readCommand(entry: unknown): BotCommand {
  const fail = (why: string) => badRequest(`can't parse BotCommand: ${why}`);
  if (!isObject(entry)) throw fail('expected an Object');
  for (const field of ['command', 'description']) {
    if (entry[field] === undefined) throw fail(`Can't find field "${field}"`);
    if (typeof entry[field] !== 'string') throw fail(`Field "${field}" must be of type String`);
  }
  const command = (entry.command as string).trim().replace(/^\//, '');
  const description = (entry.description as string).trim();
  if (command === '') throw badRequest('command must be non-empty');
  if ([...command].length > MAX_COMMAND_LENGTH) throw badRequest(`command length must not exceed ${MAX_COMMAND_LENGTH}`);
  if (description === '') throw badRequest('command description must be non-empty');
  if ([...description].length > MAX_DESCRIPTION_LENGTH) throw badRequest(`command description length must not exceed ${MAX_DESCRIPTION_LENGTH}`);
  if (!COMMAND.test(command)) throw badRequest('BOT_COMMAND_INVALID');
  return { command, description };
}

/** `default`, `all_private_chats`, ... or `chat:<id>` / `chat_administrators:<id>` / `chat_member:<id>:<user>`. */
function scopeKey(raw: unknown): string {
  const value = parsed(raw, "can't parse BotCommandScope JSON object");
  if (value === undefined) return 'default';
  const fail = (why: string) => badRequest(`can't parse BotCommandScope: ${why}`);
  if (!isObject(value)) throw fail('BotCommandScope must be an Object');
  if (typeof value.type !== 'string') throw fail(`Can't find field "type"`);
  if (!SCOPES.has(value.type)) throw fail('Unsupported type specified');
  if (!SCOPES_WITH_CHAT.has(value.type)) return value.type;
  const chatId = value.chat_id;
  if (chatId === undefined) throw fail(`Can't find field "chat_id"`);
  if (String(chatId) === '') throw fail('Empty chat_id specified');
  if (value.type !== 'chat_member') return `${value.type}:${String(chatId)}`;
  if (typeof value.user_id !== 'number' || value.user_id <= 0) throw fail('Invalid user_id specified');
  return `chat_member:${String(chatId)}:${value.user_id}`;
}

function languageCode(params: Params): string {
  const code = stringParam(params, 'language_code') ?? '';
  if (code !== '' && !/^[a-z]{2}$/.test(code)) throw badRequest('invalid language code specified');
  return code;
}

function parsed(raw: unknown, parseError: string): unknown {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(parseError);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
