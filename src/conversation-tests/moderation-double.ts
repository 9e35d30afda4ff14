// Moderation in conversation tests: the Bot API double's side of a rule's delete, restrict, ban, unban, approve,
// decline and pin. A chat of a test may make the bot an administrator (`admin: true` or a list of rights); a call
// without the right it needs is refused with the service's words (the rule's other actions still run, and the
// refusal shows in a failed step's bot log), one with it is recorded as an output a step can expect. Join requests
// wait until the bot answers them; an approved user joins the group.
import type { Chat, User } from '@grammyjs/types';
import { durationMs } from '../engine/compile-flows.js';

/** The rights a test chat may give the bot (all of them with `admin: true`). */
export const ADMIN_RIGHTS = ['can_delete_messages', 'can_restrict_members', 'can_pin_messages', 'can_invite_users'] as const;

/** A change to a member a test can expect. */
export type MemberChange = 'restricted' | 'unrestricted' | 'banned' | 'unbanned' | 'approved' | 'declined';

/** A moderation call the bot made and the service accepted. */
export type ModerationOutput =
  | { readonly kind: 'deleted' | 'pinned'; readonly chatId: number; readonly messageId: number }
  | {
      readonly kind: 'member';
      readonly chatId: number;
      readonly change: MemberChange;
      /** The test's name for the user (its key), or the id when no test user has it. */
      readonly user: string;
      /** For a restriction or ban: how long from the test's clock, in ms; 0 until changed (or for ever). */
      readonly forMs?: number;
    };

/** What a step expects of a moderation call. */
export type ExpectedModeration =
  | { readonly kind: 'deleted' | 'pinned' }
  | { readonly kind: 'member'; readonly change: MemberChange; readonly user: string; readonly forMs?: number; readonly untilChanged?: boolean };

/** The right each moderation method needs, and the service's refusal without it. */
const NEEDS: Readonly<Record<string, { right: (typeof ADMIN_RIGHTS)[number]; refusal: string }>> = {
  deletemessage: { right: 'can_delete_messages', refusal: "Bad Request: message can't be deleted" },
  restrictchatmember: { right: 'can_restrict_members', refusal: 'Bad Request: not enough rights to restrict/unrestrict chat member' },
  banchatmember: { right: 'can_restrict_members', refusal: 'Bad Request: not enough rights to restrict/unrestrict chat member' },
  unbanchatmember: { right: 'can_restrict_members', refusal: 'Bad Request: not enough rights to restrict/unrestrict chat member' },
  approvechatjoinrequest: { right: 'can_invite_users', refusal: 'Bad Request: CHAT_ADMIN_REQUIRED' },
  declinechatjoinrequest: { right: 'can_invite_users', refusal: 'Bad Request: CHAT_ADMIN_REQUIRED' },
  pinchatmessage: { right: 'can_pin_messages', refusal: 'Bad Request: not enough rights to manage pinned messages in the chat' },
};

/** Whether `method` is a moderation call the double takes. */
export function isModerationMethod(method: string): boolean {
  return Object.hasOwn(NEEDS, method);
}

/** What the double knows when a moderation call arrives. */
export interface ModerationContext {
  /** The bot's rights in the call's chat; undefined: it is no administrator there. */
  readonly rights: ReadonlySet<string> | undefined;
  readonly now: number;
  readonly userName: (id: number) => string;
}

/** The output a moderation call makes, or the service's refusal (a string) when the bot lacks the right. */
export function moderationOutput(method: string, params: Record<string, unknown>, context: ModerationContext): ModerationOutput | string {
  const need = NEEDS[method]!;
  if (!context.rights?.has(need.right)) return need.refusal;
  const chatId = Number(params.chat_id);
  if (method === 'deletemessage' || method === 'pinchatmessage')
    return { kind: method === 'deletemessage' ? 'deleted' : 'pinned', chatId, messageId: Number(params.message_id) };
  const user = context.userName(Number(params.user_id));
  const until = Number(params.until_date ?? 0);
  const forMs = until === 0 ? 0 : Math.max(0, until * 1000 - context.now);
  switch (method) {
    case 'restrictchatmember': {
      const permissions = (params.permissions ?? {}) as Record<string, boolean>;
      const lifted = Object.values(permissions).every((allowed) => allowed);
      return lifted ? { kind: 'member', chatId, change: 'unrestricted', user } : { kind: 'member', chatId, change: 'restricted', user, forMs };
    }
    case 'banchatmember':
      return { kind: 'member', chatId, change: 'banned', user, forMs };
    case 'unbanchatmember':
      return { kind: 'member', chatId, change: 'unbanned', user };
    default:
      return { kind: 'member', chatId, change: method === 'approvechatjoinrequest' ? 'approved' : 'declined', user };
  }
}

/** Whether a recorded moderation call is what the step expected (a duration within the second it is dated to). */
export function moderationMatches(expected: ExpectedModeration, actual: ModerationOutput): boolean {
  if (expected.kind !== 'member' || actual.kind !== 'member') return expected.kind === actual.kind;
  if (expected.change !== actual.change || expected.user !== actual.user) return false;
  if (expected.untilChanged) return actual.forMs === 0;
  // until_date is in whole seconds: the call's `for` comes back up to a second short.
  return expected.forMs === undefined || (actual.forMs !== undefined && actual.forMs > expected.forMs - 1000 && actual.forMs <= expected.forMs);
}

/** A duration as rules write it: the largest whole unit (`1d`, `2h`, `15m`, `90s`). */
function durationText(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['m', 60],
  ] as const)
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}

/** An expected or recorded moderation call as a test file writes it. */
export function showModeration(output: ExpectedModeration | ModerationOutput): string {
  if (output.kind !== 'member') return `{ ${output.kind}: true }`;
  const untilChanged = ('untilChanged' in output && output.untilChanged) || (output.change === 'restricted' && output.forMs === 0);
  const duration = untilChanged ? ', until_changed: true' : output.forMs ? `, for: ${durationText(output.forMs)}` : '';
  return `{ ${output.change}: { user: ${output.user}${duration} } }`;
}

/** The value `--update` writes for a recorded moderation call. */
export function moderationValue(output: ModerationOutput): unknown {
  if (output.kind !== 'member') return { [output.kind]: true };
  const until = output.change === 'restricted' && output.forMs === 0 ? { until_changed: true } : output.forMs ? { for: durationText(output.forMs) } : {};
  return { [output.change]: { user: output.user, ...until } };
}

/** The expectation an `expect:` item names with one of the moderation keys; a problem (a string) when it is wrong. */
export function compileModeration(key: string, value: unknown, users: readonly string[]): ExpectedModeration | string {
  if (key === 'deleted' || key === 'pinned') return value === true ? { kind: key } : `write ${key}: true`;
  const spec = value as { user?: unknown; for?: unknown; until_changed?: unknown };
  const user = String(spec.user);
  if (!users.includes(user)) return `no user '${user}' in this test (users: ${users.join(', ')})`;
  const change = key as MemberChange;
  if (spec.for !== undefined && spec.until_changed !== undefined) return 'give `for` or `until_changed`, not both';
  if (spec.for !== undefined) return { kind: 'member', change, user, forMs: durationMs(String(spec.for)) };
  return { kind: 'member', change, user, ...(spec.until_changed === true ? { untilChanged: true } : {}) };
}

/** The keys of `expect:` items that name a moderation call. */
export const MODERATION_KEYS = ['deleted', 'pinned', 'restricted', 'unrestricted', 'banned', 'unbanned', 'approved', 'declined'] as const;

/** A join request waiting for the bot (`request_join`): the group and the user who asked. */
interface JoinRequest {
  readonly chat: Chat;
  readonly user: User;
}

/**
 * The join requests waiting for an answer, as the service keeps them: asking twice before an answer is refused,
 * answering a request nobody made is refused with the service's words, and an approval makes the user a member.
 */
export class PendingJoinRequests {
  private readonly waiting = new Map<string, JoinRequest>();
  /**
   * Who is in each group as far as the test shows (`chat:user`): they wrote there, joined, or the bot let them in;
   * gone when they left or were banned. The service takes no join request from a member.
   */
  private readonly members = new Set<string>();

  /** Records the request; 'waiting' when the user already asked to join this group, 'member' when they are in it. */
  ask(chat: Chat, user: User): 'asked' | 'waiting' | 'member' {
    const key = `${chat.id}:${user.id}`;
    if (this.members.has(key)) return 'member';
    if (this.waiting.has(key)) return 'waiting';
    this.waiting.set(key, { chat, user });
    return 'asked';
  }

  /** Ends the request the call answers; the service's refusal (a string) when none waits. */
  answer(params: Record<string, unknown>): JoinRequest | string {
    const key = `${Number(params.chat_id)}:${Number(params.user_id)}`;
    const request = this.waiting.get(key);
    if (!request) return 'Bad Request: HIDE_REQUESTER_MISSING';
    this.waiting.delete(key);
    return request;
  }

  /** The user is in the group now (`true`), or no longer (`false`). */
  note(chatId: number, userId: number, inGroup: boolean): void {
    if (inGroup) this.members.add(`${chatId}:${userId}`);
    else this.members.delete(`${chatId}:${userId}`);
  }
}

/**
 * The members who may not write in a group for now, as the service keeps them: muted (restricted) or banned, until
 * their time or until lifted. A message of theirs never reaches the bot (the service refuses it).
 */
export class SilencedMembers {
  private readonly members = new Map<string, { readonly why: 'muted' | 'banned'; readonly untilMs: number }>();

  /** Keeps what a moderation call did to member `userId` at `now`. */
  note(output: ModerationOutput, userId: number, now: number): void {
    if (output.kind !== 'member') return;
    const key = `${output.chatId}:${userId}`;
    if (output.change === 'restricted' || output.change === 'banned')
      this.members.set(key, { why: output.change === 'banned' ? 'banned' : 'muted', untilMs: output.forMs ? now + output.forMs : 0 });
    else if (output.change === 'unrestricted' || output.change === 'unbanned') this.members.delete(key);
  }

  /** Why the service refuses a message of this user in this chat at `now`; undefined when it takes it. */
  refusal(chatId: number, userId: number, now: number): { readonly why: 'muted' | 'banned'; readonly until: string } | undefined {
    const entry = this.members.get(`${chatId}:${userId}`);
    if (!entry || (entry.untilMs !== 0 && entry.untilMs <= now)) return undefined;
    return { why: entry.why, until: entry.untilMs === 0 ? 'until lifted' : `until ${new Date(entry.untilMs).toISOString().replace('.000Z', 'Z')}` };
  }
}
