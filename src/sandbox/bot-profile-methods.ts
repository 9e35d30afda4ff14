// The other methods bots commonly call at start or in passing: the bot's name and descriptions (per
// language), getchat, getchatmember, getchatadministrators, getchatmembercount, sendchataction (shown in the chat for 5 s or until
// the bot's next message there), and logout/close, which the sandbox accepts without logging anything out.
import type { ChatMember } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import { privateChat } from './chat-messages.js';
import { chatMessagesOf, targetChat } from './chat-target.js';
import { administrators, memberView, participantUser } from './group-admins.js';
import { groupChat } from './group-chat.js';
import type { MethodContext } from './method-context.js';
import { booleanParam, integerParam, stringParam, type Params } from './params.js';

/** How long a chat action shows, as in the real apps. */
export const CHAT_ACTION_MS = 5000;
const ACTIONS = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'record_audio',
  'upload_voice',
  'upload_audio',
  'upload_document',
  'choose_sticker',
  'find_location',
  'pick_up_location',
  'record_video_note',
  'upload_video_note',
]);
const PROFILE_LIMITS = { name: 64, description: 512, short_description: 120 } as const;
type ProfileField = keyof typeof PROFILE_LIMITS;

/** sendchataction: shows the action in the chat (or stops it with `cancel`). */
export function sendChatAction({ store, bot }: MethodContext, params: Params): true {
  const action = (stringParam(params, 'action') ?? '').toLowerCase();
  if (action !== 'cancel' && !ACTIONS.has(action)) throw badRequest('wrong parameter action in request');
  const target = targetChat(store, bot, params, { write: true });
  store.showAction(target.ref, action === 'cancel' ? undefined : { action, until: Date.now() + CHAT_ACTION_MS });
  return true;
}

/** getchat: the private chat or group as a ChatFullInfo with the fields the sandbox knows (the latest pinned message too). */
export function getChat({ store, bot }: MethodContext, params: Params): Record<string, unknown> {
  const target = targetChat(store, bot, params, { write: false });
  const chat = target.kind === 'group' ? groupChat(target.group) : privateChat(target.user);
  const pinnedId = store.pins(target.ref).at(-1);
  const pinned = pinnedId === undefined ? undefined : chatMessagesOf(store, target, bot.id).find((message) => message.message_id === pinnedId);
  return { ...chat, accent_color_id: 0, max_reaction_count: 11, accepted_gift_types: {}, ...(pinned ? { pinned_message: pinned } : {}) };
}

/**
 * getchatmember: in a group, the member's real status (creator, administrator with its rights, member, left);
 * in a private chat, `member` for the user and the bot.
 */
export function getChatMember({ store, bot }: MethodContext, params: Params): ChatMember {
  const target = targetChat(store, bot, params, { write: false });
  const userId = integerParam(params, 'user_id') ?? 0;
  if (userId <= 0) throw badRequest('invalid user_id specified');
  const member = participantUser(store, userId);
  if (!member) throw badRequest('user not found');
  if (target.kind === 'group') return memberView(target.group, member);
  const inChat = userId === target.user.id || userId === bot.id;
  return (inChat ? { status: 'member', user: member } : { status: 'left', user: member }) as ChatMember;
}

/** getchatadministrators: the group's creator and administrators (other bots only with return_bots). */
export function getChatAdministrators({ store, bot }: MethodContext, params: Params): ChatMember[] {
  const target = targetChat(store, bot, params, { write: false });
  if (target.kind !== 'group') throw badRequest('there are no administrators in the private chat');
  return administrators(store, target.group, bot.id, booleanParam(params, 'return_bots'));
}

/** getchatmembercount: users and bots in a group; 2 in a private chat. */
export function getChatMemberCount({ store, bot }: MethodContext, params: Params): number {
  const target = targetChat(store, bot, params, { write: false });
  return target.kind === 'group' ? target.group.memberIds.size + target.group.botIds.size : 2;
}

/** setmyname, getmyname, setmydescription, ...: per-language texts of the bot's profile. */
export const setMyName = (context: MethodContext, params: Params): true => setProfileText(context, params, 'name');
export const getMyName = ({ bot }: MethodContext, params: Params) => ({ name: profileText(bot.profile, params, 'name') ?? bot.name });
export const setMyDescription = (context: MethodContext, params: Params): true => setProfileText(context, params, 'description');
export const getMyDescription = ({ bot }: MethodContext, params: Params) => ({ description: profileText(bot.profile, params, 'description') ?? '' });
export const setMyShortDescription = (context: MethodContext, params: Params): true => setProfileText(context, params, 'short_description');
export const getMyShortDescription = ({ bot }: MethodContext, params: Params) => ({
  short_description: profileText(bot.profile, params, 'short_description') ?? '',
});

/** logout and close: accepted; the sandbox keeps serving the bot (the real service would refuse it for a while). */
export const logOut = (): true => true;

function setProfileText({ bot }: MethodContext, params: Params, field: ProfileField): true {
  const text = stringParam(params, field) ?? '';
  if ([...text].length > PROFILE_LIMITS[field]) throw badRequest(`bot ${field.replace('_', ' ')} is too long`);
  const key = `${field}|${language(params)}`;
  if (text === '') bot.profile.delete(key);
  else bot.profile.set(key, text);
  return true;
}

function profileText(profile: Map<string, string>, params: Params, field: ProfileField): string | undefined {
  const code = language(params);
  return profile.get(`${field}|${code}`) ?? (code === '' ? undefined : profile.get(`${field}|`));
}

function language(params: Params): string {
  const code = stringParam(params, 'language_code') ?? '';
  if (code !== '' && !/^[a-z]{2}$/.test(code)) throw badRequest('invalid language code specified');
  return code;
}
