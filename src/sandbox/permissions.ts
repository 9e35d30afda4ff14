// What a restricted member may still do (ChatPermissions), as restrictchatmember takes it and getchatmember
// shows it, and the dates restrictions and bans run until: as on the real service, less than 30 seconds or
// more than 366 days from now means for good (0). A restriction or a ban whose date has passed is over.
import { badRequest } from './api-failure.js';
import { jsonParam, booleanParam, integerParam, type Params } from './params.js';
import type { GroupRecord, Restriction } from './store.js';

/** The permissions a member can be given or denied, in the order the service lists them. */
export const PERMISSION_NAMES = [
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
  'can_change_info',
  'can_invite_users',
  'can_pin_messages',
  'can_manage_topics',
] as const;

export type PermissionName = (typeof PERMISSION_NAMES)[number];
export type Permissions = Record<PermissionName, boolean>;

const MEDIA: readonly PermissionName[] = [
  'can_send_audios',
  'can_send_documents',
  'can_send_photos',
  'can_send_videos',
  'can_send_video_notes',
  'can_send_voice_notes',
];
const SECONDS_30 = 30;
const DAYS_366 = 366 * 24 * 3600;

/**
 * restrictchatmember's `permissions`: each one named takes its value, the others are false. Without
 * use_independent_chat_permissions, the older meaning applies: `can_send_media_messages` stands for every
 * kind of media, and any media, poll, other message or link preview allowed allows plain messages too.
 */
export function readPermissions(params: Params): Permissions {
  const given = params.permissions === undefined ? {} : jsonParam(params, 'permissions');
  if (given === null || typeof given !== 'object' || Array.isArray(given)) throw badRequest('object expected as permissions');
  const raw = given as Record<string, unknown>;
  const permissions = Object.fromEntries(PERMISSION_NAMES.map((name) => [name, raw[name] === true])) as Permissions;
  if (booleanParam(params, 'use_independent_chat_permissions')) return permissions;
  if (raw.can_send_media_messages === true) for (const name of MEDIA) permissions[name] = true;
  const impliesMessages: readonly PermissionName[] = [...MEDIA, 'can_send_polls', 'can_send_other_messages', 'can_add_web_page_previews'];
  if (impliesMessages.some((name) => permissions[name])) permissions.can_send_messages = true;
  return permissions;
}

/** `until_date` as the service keeps it: 0 (for good) when absent, under 30 s or over 366 days away. */
export function untilDate(params: Params, now = Math.floor(Date.now() / 1000)): number {
  const until = integerParam(params, 'until_date') ?? 0;
  return until - now < SECONDS_30 || until - now > DAYS_366 ? 0 : until;
}

/** Whether a restriction or ban until `until` (0: for good) still holds. */
export function stillHolds(until: number, now = Math.floor(Date.now() / 1000)): boolean {
  return until === 0 || until > now;
}

/** The member's restriction in force, if any (a lapsed one is forgotten). */
export function restrictionOf(group: GroupRecord, userId: number): Restriction | undefined {
  const restriction = group.restricted.get(userId);
  if (restriction && !stillHolds(restriction.until)) group.restricted.delete(userId);
  return group.restricted.get(userId);
}

/** Whether the user is banned from the group now (a lapsed ban is forgotten). */
export function isBanned(group: GroupRecord, userId: number): boolean {
  const until = group.banned.get(userId);
  if (until !== undefined && !stillHolds(until)) group.banned.delete(userId);
  return group.banned.has(userId);
}

/** The permissions as getchatmember shows them, can_send_media_messages included. */
export function permissionsView(permissions: Permissions): Record<string, boolean> {
  const view: Record<string, boolean> = { can_send_messages: permissions.can_send_messages, can_send_media_messages: MEDIA.some((name) => permissions[name]) };
  for (const name of PERMISSION_NAMES) view[name] = permissions[name];
  return view;
}

/**
 * The refusal a restricted member gets for posting `content` (the fields of a message: text, photo,
 * document…), in the service's words, or undefined when they may post it.
 */
export function sendRefusal(group: GroupRecord, userId: number, content: Record<string, unknown>): string | undefined {
  const restriction = restrictionOf(group, userId);
  if (!restriction) return undefined;
  if (content.photo !== undefined) return restriction.permissions.can_send_photos ? undefined : 'CHAT_SEND_PHOTOS_FORBIDDEN';
  if (content.document !== undefined) return restriction.permissions.can_send_documents ? undefined : 'CHAT_SEND_DOCS_FORBIDDEN';
  return restriction.permissions.can_send_messages ? undefined : 'CHAT_SEND_PLAIN_FORBIDDEN';
}
