// Compiles what a rule does to the group besides answering: `delete` (the triggering message), `restrict`
// (`{ for: 1h }` or `{ until_changed: true }`), `unrestrict`, `ban` (`true` or `{ for: 1d }`), `unban`,
// `approve` and `decline` (a join request), `pin` (`message`, `reply`, or `true`: the reply when there is one).
// Checks them against the trigger: a join request is approved only by a join_request rule (or a flow it starts), a
// rule that can fire only in private chats has no member to restrict. Which admin right each needs is RIGHT_OF
// (docs/rules.md). The same keys may stand in a branch of a call's `on` and in a flow's done branch.
import { MEDIA_KEYS } from './compile-media.js';
import type { Rule } from '../generated/rules-schema.js';
import type { ModerationMethod } from './actions.js';
import type { RuleProblemSink } from './compile-actions.js';
import { durationMs } from './compile-flows.js';

/** A rule's moderation actions, in the order they are performed. */
export interface CompiledModeration {
  readonly delete: boolean;
  /** Restrict the user (no sending) for this long; 0: until changed (unrestrict). */
  readonly restrictForMs: number | null;
  readonly unrestrict: boolean;
  /** Ban the user for this long; 0: for good. */
  readonly banForMs: number | null;
  readonly unban: boolean;
  readonly approve: boolean;
  readonly decline: boolean;
  readonly pin: 'message' | 'reply' | null;
}

/** The admin right each moderation call needs in a group, as the service checks it. */
export const RIGHT_OF: Readonly<Record<ModerationMethod, string>> = {
  deletemessage: 'can_delete_messages',
  restrictchatmember: 'can_restrict_members',
  banchatmember: 'can_restrict_members',
  unbanchatmember: 'can_restrict_members',
  approvechatjoinrequest: 'can_invite_users',
  declinechatjoinrequest: 'can_invite_users',
  pinchatmessage: 'can_pin_messages',
};

// The service treats a restriction or ban under 30 s or over 366 days as one for good.
const MIN_MS = 30_000;
const MAX_MS = 366 * 24 * 3600 * 1000;

/** Where moderation keys stand, for the checks: what is around them besides the keys themselves. */
export interface ModerationSite {
  /** Whether there is a reply to pin besides the keys' own object (a rule with `call`: one of its branches has one). */
  readonly hasReply?: boolean;
  /** What has no message of its own to delete or pin (`a done branch`); undefined: the trigger says. */
  readonly without?: string;
  /** Whether a join request is answered (an `event: join_request` rule, or a flow such a request starts). */
  readonly joinRequest?: boolean;
}

type ModerationKeys = Pick<
  Rule,
  'delete' | 'restrict' | 'unrestrict' | 'ban' | 'unban' | 'approve' | 'decline' | 'pin' | 'reply' | 'messages' | 'event' | 'callback' | 'chat_types'
> &
  Partial<Record<(typeof MEDIA_KEYS)[number], unknown>>;

/**
 * The moderation of a rule, of a branch of its `on` or of a flow's done branch (null when it has none); problems
 * are reported at their key.
 */
export function compileModeration(rule: ModerationKeys, name: string, report: RuleProblemSink, site: ModerationSite = {}): CompiledModeration | null {
  const { delete: del, restrict, unrestrict, ban, unban, approve, decline, pin } = rule;
  if ([del, restrict, unrestrict, ban, unban, approve, decline, pin].every((value) => value === undefined)) return null;
  // A photo or other media is a reply too: `pin: reply` pins it.
  const hasReply = site.hasReply === true || rule.reply !== undefined || rule.messages !== undefined || MEDIA_KEYS.some((key) => rule[key] !== undefined);
  // `event: flooding` answers a message (the first over the limit): it has one to delete or pin.
  const event = rule.event === 'flooding' ? undefined : (rule.event as string | undefined);
  const isJoinRequest = site.joinRequest === true || event === 'join_request';
  for (const key of ['approve', 'decline'] as const) {
    if (rule[key] === true && !isJoinRequest)
      report(
        [key],
        `\`${key}\` answers a join request, and ${name} ${site.without ? 'is not in a flow that `event: join_request` starts' : 'is not an `event: join_request` rule'}: remove it`,
      );
  }
  if (rule.chat_types?.every((type) => type === 'private')) {
    for (const key of ['restrict', 'unrestrict', 'ban', 'unban'] as const) {
      if (rule[key] !== undefined)
        report([key], `${name} answers only in private chats, where there is no member to ${key}: remove it, or add group or supergroup to chat_types`);
    }
  }
  checkPairs(rule, name, report);
  const without = site.without ?? (rule.callback !== undefined ? 'a button press' : event !== undefined ? `an \`event: ${event}\`` : undefined);
  if (del === true && without !== undefined) report(['delete'], `\`delete\` removes the message that triggered ${name}, and ${without} has none: remove it`);
  const pinWhat = pin === true ? (hasReply ? 'reply' : 'message') : (pin ?? null);
  if (pinWhat === 'reply' && !hasReply) report(['pin'], `\`pin: reply\` pins the reply of ${name}, which has none: add a \`reply\`, or write \`pin: message\``);
  if (pinWhat === 'message' && without !== undefined) report(['pin'], `${name} has no message of its own to pin: write \`pin: reply\``);
  return Object.freeze({
    delete: del === true,
    restrictForMs: restrict === undefined ? null : lifetime(restrict, ['restrict'], name, report),
    unrestrict: unrestrict === true,
    banForMs: ban === undefined ? null : ban === true ? 0 : lifetime(ban, ['ban'], name, report),
    unban: unban === true,
    approve: approve === true,
    decline: decline === true,
    pin: pinWhat,
  });
}

/** Both halves of a pair at once is a contradiction. */
function checkPairs(rule: ModerationKeys, name: string, report: RuleProblemSink): void {
  if (rule.approve === true && rule.decline === true) report(['decline'], `${name} both approves and declines the join request: keep one`);
  if (rule.restrict !== undefined && rule.unrestrict === true) report(['unrestrict'], `${name} both restricts and unrestricts the member: keep one`);
  if (rule.ban !== undefined && rule.unban === true) report(['unban'], `${name} both bans and unbans the member: keep one`);
}

/**
 * A rule's moderation with that of the branch its call's outcome picked: the branch adds to the rule's (its
 * durations and pin take precedence).
 */
export function combineModeration(rule: CompiledModeration | null, branch: CompiledModeration | null | undefined): CompiledModeration | null {
  if (!rule || !branch) return branch ?? rule;
  return Object.freeze({
    delete: rule.delete || branch.delete,
    restrictForMs: branch.restrictForMs ?? rule.restrictForMs,
    unrestrict: rule.unrestrict || branch.unrestrict,
    banForMs: branch.banForMs ?? rule.banForMs,
    unban: rule.unban || branch.unban,
    approve: rule.approve || branch.approve,
    decline: rule.decline || branch.decline,
    pin: branch.pin ?? rule.pin,
  });
}

function lifetime(value: { for?: string; until_changed?: boolean }, path: string[], name: string, report: RuleProblemSink): number {
  if (value.for === undefined) return 0;
  const ms = durationMs(value.for);
  if (ms === 0) {
    report([...path, 'for'], `'${value.for}' in ${name} is not a duration: write 90s, 15m, 2h or 1d`);
    return 0;
  }
  if (ms < MIN_MS || ms > MAX_MS)
    report(
      [...path, 'for'],
      `the service treats ${ms < MIN_MS ? 'less than 30 seconds' : 'more than 366 days'} as for good: ${name} would ${path[0]} for good; write until_changed (restrict) or true (ban) if that is meant`,
      'warning',
    );
  return ms;
}

// Events that happen only in groups: a rule answering one never fires in a private chat.
const GROUP_EVENTS = new Set(['member_joined', 'member_left', 'join_request', 'member_restricted', 'bot_added', 'bot_removed']);

/**
 * A warning for member.* in a rule that can fire in a private chat: there the member is just the user, so a
 * per-group counter or vote means nothing (user.* says what is meant). Reported once, where it is first written.
 */
export function warnOfMemberInPrivate(rule: Rule, name: string, report: RuleProblemSink): void {
  const event = rule.event as string | undefined;
  if ((event !== undefined && GROUP_EVENTS.has(event)) || rule.chat_types?.every((type) => type !== 'private')) return;
  const inWhen = Object.keys(rule.when ?? {}).find((key) => key.startsWith('member.'));
  const inSet = Object.keys(rule.set ?? {}).find((key) => key.startsWith('member.'));
  const template = /\{\{\s*var\.member\.([A-Za-z_][A-Za-z0-9_]*)/.exec(JSON.stringify(rule))?.[1];
  const [path, written] = inWhen ? [['when', inWhen], inWhen] : inSet ? [['set', inSet], inSet] : template ? [[], `member.${template}`] : [];
  if (!path || !written) return;
  report(
    path,
    `${name} uses ${written} and can answer in private chats, where there is no group: member.* is then only the user in that private chat (what user.* is for); add \`chat_types: [group, supergroup]\`, or use user.*`,
    'warning',
  );
}
