// Turns a matched rule's moderation into Bot API calls on the event's chat: what goes before the replies (delete
// the message, restrict or ban its sender, lift that, approve or decline a join request, pin the message) and
// what follows them (pin the reply). The member acted on is the event's user: who wrote, joined or asked.
import type { Action, JsonValue, ModerateAction, ModerationMethod, SendMediaAction, SendMessageAction } from './actions.js';
import type { CompiledModeration } from './compile-moderation.js';

/** What a member may send (ChatPermissions): a restriction by a rule denies all of them, lifting it allows them again. */
const SEND_PERMISSIONS = [
  'can_send_messages',
  'can_send_audios',
  'can_send_documents',
  'can_send_photos',
  'can_send_videos',
  'can_send_video_notes',
  'can_send_voice_notes',
  'can_send_polls',
  'can_send_other_messages',
  'can_add_web_page_previews',
] as const;
const MEMBER_PERMISSIONS = [...SEND_PERMISSIONS, 'can_change_info', 'can_invite_users', 'can_pin_messages', 'can_manage_topics'] as const;

/** Where the moderation acts: the chat, the message that triggered the rule (0: none) and its user. */
export interface ModerationTarget {
  readonly chatId: number;
  readonly messageId: number;
  readonly userId: number | undefined;
}

/** The calls before the rule's replies and after them; `now` (ms) dates a restriction or ban `for` a while. */
export function moderationActions(
  moderation: CompiledModeration,
  target: ModerationTarget,
  now: number,
): { before: ModerateAction[]; after: ModerateAction[] } {
  const before: ModerateAction[] = [];
  const call = (method: ModerationMethod, params: Record<string, JsonValue>) => before.push({ type: 'moderate', method, chatId: target.chatId, params });
  const { userId, messageId } = target;
  const until = (ms: number) => (ms === 0 ? 0 : Math.floor((now + ms) / 1000));
  if (moderation.delete && messageId > 0) call('deletemessage', { message_id: messageId });
  if (userId !== undefined) {
    if (moderation.restrictForMs !== null) call('restrictchatmember', { user_id: userId, ...permissions(false), until_date: until(moderation.restrictForMs) });
    if (moderation.unrestrict) call('restrictchatmember', { user_id: userId, ...permissions(true) });
    if (moderation.banForMs !== null) call('banchatmember', { user_id: userId, until_date: until(moderation.banForMs) });
    // Only a banned user: unbanning someone who is in the group would remove them.
    if (moderation.unban) call('unbanchatmember', { user_id: userId, only_if_banned: true });
    if (moderation.approve) call('approvechatjoinrequest', { user_id: userId });
    if (moderation.decline) call('declinechatjoinrequest', { user_id: userId });
  }
  if (moderation.pin === 'message' && messageId > 0) call('pinchatmessage', { message_id: messageId });
  const after: ModerateAction[] =
    moderation.pin === 'reply' ? [{ type: 'moderate', method: 'pinchatmessage', chatId: target.chatId, params: {}, pinsReply: true }] : [];
  return { before, after };
}

/**
 * A rule's (or branch's) replies with its moderation around them: the deletion and the member's change before,
 * the last reply marked to be pinned and its pin after. The replies as they are without moderation.
 */
export function moderateAround(replies: readonly Action[], moderation: CompiledModeration | null, target: ModerationTarget, now: number): Action[] {
  if (!moderation) return [...replies];
  const { before, after } = moderationActions(moderation, target, now);
  const sent = [...replies];
  // The reply a rule pins is its last message.
  const last = sent.findLastIndex((action) => action.type === 'send_message' || action.type === 'send_media');
  if (after.length > 0 && last >= 0) sent[last] = { ...(sent[last] as SendMessageAction | SendMediaAction), pinned: true };
  return [...before, ...sent, ...(last >= 0 ? after : [])];
}

function permissions(allowed: boolean): Record<string, JsonValue> {
  const names = allowed ? MEMBER_PERMISSIONS : SEND_PERMISSIONS;
  return { permissions: Object.fromEntries(names.map((name) => [name, allowed])), use_independent_chat_permissions: true };
}

/**
 * A button press's actions with its rule's moderation of the user who pressed (a captcha's `unrestrict`): after
 * the answer to the press (the button stops spinning first), before the edit and the replies; the reply pinned last.
 */
export function moderatePress(
  actions: readonly Action[],
  moderation: CompiledModeration | null,
  chatId: number | undefined,
  userId: number,
  now: number,
): Action[] {
  if (!moderation || chatId === undefined) return [...actions];
  const { before, after } = moderationActions(moderation, { chatId, messageId: 0, userId }, now);
  const [answer, ...rest] = actions;
  const last = rest.findLastIndex((action) => action.type === 'send_message');
  // The reply a rule pins is its last message.
  if (after.length > 0 && last >= 0) rest[last] = { ...(rest[last] as SendMessageAction), pinned: true };
  return [...(answer ? [answer] : []), ...before, ...rest, ...(last >= 0 ? after : [])];
}
