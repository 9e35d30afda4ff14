// The events about the bot's own standing and a group's door: a user blocked or unblocked the bot, the bot was
// added to a group or removed from one, a user asked to join, an administrator restricted a member. Each is
// answered by the first `event:` rule for it whose conditions hold, with {{user.*}} the user concerned. Whatever
// the rules, a user who blocks the bot is marked (`user._blocked`, the date) until they unblock it or write again.
import type { Message } from '@grammyjs/types';
import type { Action } from './actions.js';
import { answerRule } from './answer.js';
import { conditionsPass } from './conditions.js';
import type { Decision, DecideContext } from './decide-types.js';
import type { BotEvent, BotStatusEvent, JoinRequestEvent, MemberRestrictedEvent } from './events.js';
import { audienceCheck, languageFor } from './reach.js';
import type { RuleSet } from './rule-set.js';
import { valueIn, variablesOf, type ConversationState } from './state.js';
import { startJoinFlow } from './join-flows.js';

/** The user variable that marks a user who blocked the bot (the Unix date they did), until they write again. */
export const BLOCKED_VARIABLE = '_blocked';

/** Decides a bot status, join request or restriction event. */
export function decideStatusEvent(
  event: BotStatusEvent | JoinRequestEvent | MemberRestrictedEvent,
  ruleSet: RuleSet,
  state: ConversationState,
  context: DecideContext,
): Decision {
  const marks = blockedMarks(event, state);
  const rules = ruleSet.index.events.get(event.kind === 'bot_status' ? event.status : event.kind) ?? [];
  if (rules.length === 0) return { ruleId: null, actions: marks };
  const message = { message_id: 0, date: event.date, chat: event.chat, from: event.from } as Message;
  const values = variablesOf(state);
  const whenHolds = audienceCheck(message, values, languageFor(ruleSet, event.from, state), context.botUsername, (context.now ?? Date.now)());
  const rule = rules.find((candidate) => conditionsPass(candidate, message, whenHolds));
  if (!rule) return { ruleId: null, actions: marks };
  // A flow's start: the questions go to the requester in private.
  if (rule.startsFlow !== undefined && event.kind === 'join_request') return startJoinFlow(rule, event, ruleSet, state, (context.now ?? Date.now)());
  const decision = answerRule(rule, { rule }, { message, chat: event.chat, from: event.from }, values, context, (vars) =>
    languageFor(ruleSet, event.from, vars),
  );
  return { ruleId: decision.ruleId, actions: [...marks, ...decision.actions] };
}

/** The mark of a block (set when blocked, removed when unblocked). */
function blockedMarks(event: BotStatusEvent | JoinRequestEvent | MemberRestrictedEvent, state: ConversationState): Action[] {
  if (event.kind !== 'bot_status') return [];
  if (event.status === 'blocked') return [{ type: 'set_state', scope: 'user', key: BLOCKED_VARIABLE, value: event.date }];
  if (event.status === 'unblocked' && valueIn(state.user, BLOCKED_VARIABLE) !== undefined) return [unblocked()];
  return [];
}

/**
 * The user variable that marks a user who has written to the bot in private (the Unix date they first did): the
 * store then knows them as reachable there, variables or not (a broadcast's audience is made of known users).
 */
export const PRIVATE_CHAT_VARIABLE = '_private';

/** Marks, once, a user who writes or presses a button in their private chat with the bot (dated by `now`). */
export function privateChatMark(event: BotEvent, state: ConversationState, now: () => number): Action | undefined {
  if (!REACHING_KINDS.has(event.kind) || !(event.chat && 'type' in event.chat && event.chat.type === 'private') || !event.from) return undefined;
  if (valueIn(state.user, PRIVATE_CHAT_VARIABLE) !== undefined) return undefined;
  return { type: 'set_state', scope: 'user', key: PRIVATE_CHAT_VARIABLE, value: Math.floor(now() / 1000) };
}

/** What a user does themselves in their private chat (a block or a service message is not writing to the bot). */
const REACHING_KINDS: ReadonlySet<BotEvent['kind']> = new Set(['message', 'media', 'callback_query']);

/** Removes the block mark of a user who writes again (they could not, had they still blocked the bot). */
export function clearBlockedMark(state: ConversationState): Action | undefined {
  return valueIn(state.user, BLOCKED_VARIABLE) === undefined ? undefined : unblocked();
}

function unblocked(): Action {
  return { type: 'set_state', scope: 'user', key: BLOCKED_VARIABLE, value: null };
}
