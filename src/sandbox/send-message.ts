// getme and sendmessage (to private chats and groups) with the real service's checks and exact descriptions.
// The 4096 limit counts characters (Unicode code points) of the text after HTML parsing.
import type { Message, UserFromGetMe } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { prepareSending, sendContent } from './bot-messages.js';
import { formattedText } from './input-entities.js';
import type { MethodContext } from './method-context.js';
import { stringParam, type Params } from './params.js';
import type { ParsedText } from '../markup/format-text.js';
import { characterCount } from './text-entities.js';

export function getMe({ bot, store }: MethodContext): UserFromGetMe {
  // Sandbox only: names this sandbox, so hearsay knows it may report to it (setruleproblems, explainupdate)
  // and can tell a restarted sandbox from a revoked token. Clients ignore fields they do not know.
  return {
    id: bot.id,
    is_bot: true,
    first_name: bot.name,
    username: bot.username,
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    hearsay_sandbox: { instance: store.instance },
  } as unknown as UserFromGetMe;
}

export function sendMessage(context: MethodContext, params: Params): Message.TextMessage {
  const rawChatId = params.chat_id;
  if (rawChatId === undefined || rawChatId === null || rawChatId === '') throw badRequest('chat_id is empty');
  const { text, entities } = messageText(params);
  const sending = prepareSending(context, params);
  return sendContent(context, sending, entities.length > 0 ? { text, entities } : { text }) as Message.TextMessage;
}

/**
 * `text` as the user will see it: parsed by `parse_mode`, or with the `entities` given; with the service's checks
 * (shared by sendmessage and editmessagetext).
 */
export function messageText(params: Params): ParsedText {
  const parsed = formattedText(stringParam(params, 'text') ?? '', stringParam(params, 'parse_mode') ?? '', params.entities);
  if (parsed.text.trim() === '') throw badRequest('message text is empty');
  if (characterCount(parsed.text) > 4096) throw badRequest('message is too long');
  return parsed;
}
