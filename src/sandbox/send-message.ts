// getme and sendmessage (to private chats and groups) with the real service's checks and exact descriptions.
// The 4096 limit counts characters (Unicode code points) of the text after HTML parsing.
import type { Message, UserFromGetMe } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { storePeerMessage } from './chat-messages.js';
import { chatMessagesOf, targetChat } from './chat-target.js';
import { storeGroupBotMessage } from './group-chat.js';
import type { MethodContext } from './method-context.js';
import { booleanParam, integerParam, jsonParam, stringParam, type Params } from './params.js';
import { EntityParseError, formatText, PARSE_MODES, type ParsedText } from '../markup/format-text.js';
import { readReplyMarkup } from './reply-markup.js';
import { characterCount } from './text-entities.js';

export function getMe({ bot }: MethodContext): UserFromGetMe {
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
  } as UserFromGetMe;
}

export function sendMessage({ store, bot, limiter }: MethodContext, params: Params): Message.TextMessage {
  const rawChatId = params.chat_id;
  if (rawChatId === undefined || rawChatId === null || rawChatId === '') throw badRequest('chat_id is empty');
  const { text, entities } = messageText(params);
  const markup = readReplyMarkup(params);

  const target = targetChat(store, bot, params, { write: true });
  const replyTo = repliedMessage(params);
  const original = replyTo === undefined ? undefined : chatMessagesOf(store, target, bot.id).find((m) => m.message_id === replyTo.messageId);
  if (replyTo !== undefined && !original && !replyTo.allowWithout) throw badRequest('message to be replied not found');
  if (target.kind === 'group') {
    limiter.admit(bot.id, target.group.id);
    return storeGroupBotMessage(store, target.group, bot, text, original, entities, markup);
  }
  limiter.admit(bot.id, target.user.id);
  return storePeerMessage(store, target.user, { id: bot.id, name: bot.name, username: bot.username, bot }, text, original, entities, markup);
}

/** `text` and `parse_mode` as the user will see them, with the service's checks (shared by sendmessage and editmessagetext). */
export function messageText(params: Params): ParsedText {
  const parseMode = stringParam(params, 'parse_mode') ?? '';
  if (!PARSE_MODES.has(parseMode.toLowerCase())) throw badRequest('unsupported parse_mode');
  const parsed = formatted(stringParam(params, 'text') ?? '', parseMode);
  if (parsed.text.trim() === '') throw badRequest('message text is empty');
  if (characterCount(parsed.text) > 4096) throw badRequest('message is too long');
  return parsed;
}

function repliedMessage(params: Params): { messageId: number; allowWithout: boolean } | undefined {
  const parameters = jsonParam(params, 'reply_parameters') as { message_id?: unknown; allow_sending_without_reply?: unknown } | undefined;
  if (parameters && typeof parameters === 'object' && typeof parameters.message_id === 'number') {
    return { messageId: parameters.message_id, allowWithout: parameters.allow_sending_without_reply === true };
  }
  const legacy = integerParam(params, 'reply_to_message_id');
  return legacy === undefined ? undefined : { messageId: legacy, allowWithout: booleanParam(params, 'allow_sending_without_reply') };
}

/** The text the user sees and its entities; bad markup is the service's 400 "can't parse entities: …". */
function formatted(text: string, parseMode: string): ParsedText {
  try {
    return formatText(text, parseMode);
  } catch (error) {
    if (error instanceof EntityParseError) throw badRequest(`can't parse entities: ${error.message}`);
    throw error;
  }
}
