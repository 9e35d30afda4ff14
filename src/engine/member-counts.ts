// What hearsay remembers of each member of a group by itself, when the rules read the member scope at all:
// `member.messages` (the messages of any kind the user sent in this chat, the one being answered included) and
// `member.joined_at` (when the user joined it, Unix seconds, as far as the bot saw). A bot whose rules never
// mention member.* keeps nothing per member, so its group messages commit no state.
import type { SetStateAction } from './actions.js';
import type { MediaEvent, MemberEvent, MessageEvent, OtherMessageEvent } from './events.js';
import { applyStateChanges, type ConversationState } from './state.js';
import { numberOf } from './variables.js';

/** The member variables hearsay keeps itself (never reported as "never set"). */
export const KEPT_MEMBER_VARIABLES: readonly string[] = ['messages', 'joined_at'];

// A `when`/`set` key ("member.x") or a template's {{var.member.x}}, as they appear in the rules' JSON.
const MEMBER_REFERENCE = /(?:"|var\.)member\.[A-Za-z_]/;

/** Whether rules or flows (as parsed from their files) read or write the member scope anywhere. */
export function mentionsMemberScope(sources: readonly unknown[]): boolean {
  return sources.some((source) => MEMBER_REFERENCE.test(JSON.stringify(source) ?? ''));
}

function isGroup(type: string): boolean {
  return type === 'group' || type === 'supergroup';
}

/**
 * A user's message in a group counts: the increment of `member.messages` and the state decide then reads
 * (the message being answered counted, so "from your 5th message on" is `member.messages: { gte: 5 }`).
 * Undefined when nothing is counted (a private chat, a message on behalf of a chat).
 */
export function countMessage(
  event: MessageEvent | MediaEvent | OtherMessageEvent,
  state: ConversationState,
): { action: SetStateAction; state: ConversationState } | undefined {
  if (!event.from || !isGroup(event.chat.type)) return undefined;
  const value = (numberOf(state.member?.messages) ?? 0) + 1;
  const action: SetStateAction = { type: 'set_state', scope: 'member', key: 'messages', value, increment: 1 };
  return { action, state: applyStateChanges(state, [action]) };
}

/** Members who joined a group: `member.joined_at` of each (the bot itself left out), the date of the change. */
export function markJoined(event: MemberEvent, botUsername: string): SetStateAction[] {
  if (event.kind !== 'member_joined' || !isGroup(event.chat.type)) return [];
  const bot = botUsername.toLowerCase();
  return event.members
    .filter((member) => !(member.is_bot && member.username?.toLowerCase() === bot))
    .map((member) => ({
      type: 'set_state',
      scope: 'member',
      key: 'joined_at',
      value: event.date,
      ...(member.id !== event.from?.id ? { userId: member.id } : {}),
    }));
}
