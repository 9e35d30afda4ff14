// Flood control: `limits: { incoming: { per_user: 10, per: 1m } }` (once, in any rule file). A user's messages in
// one chat beyond that many within that long are not answered (they are still handled: committed, never sent
// again), and the first one over the limit is answered by the `event: flooding` rule whose conditions hold (a
// warning, a `restrict`). The times of the user's latest answered messages in the chat are kept as the member
// variable `_flood` (message dates, Unix seconds: a backlog handled late is judged by when it was written).
import type { Action, SetStateAction } from './actions.js';

const NONE: readonly Action[] = Object.freeze([]);
import { answerRule } from './answer.js';
import { conditionsPass } from './conditions.js';
import type { Decision, DecideContext } from './decide-types.js';
import type { MediaEvent, MessageEvent, OtherMessageEvent } from './events.js';
import { audienceCheck, languageFor } from './reach.js';
import type { RuleSet } from './rule-set.js';
import { valueIn, variablesOf, type ConversationState } from './state.js';

/** `limits.incoming`: at most `perUser` messages of one user in one chat within `perSeconds`. */
export interface IncomingLimit {
  readonly perUser: number;
  readonly perSeconds: number;
}

/** The member variable that keeps the dates of the user's latest answered messages ('!' first: flooding, told). */
export const FLOOD_VARIABLE = '_flood';

/** What the limit says of one message: within it (and what to remember), or over it (and whether first). */
export type FloodVerdict =
  { readonly over: false; readonly action: SetStateAction } | { readonly over: true; readonly first: boolean; readonly action?: SetStateAction };

/** Judges a message of a user against the limit, by the dates of their latest answered messages in the chat. */
export function judgeFlood(limit: IncomingLimit, state: ConversationState, date: number): FloodVerdict {
  const kept = String(valueIn(state.member, FLOOD_VARIABLE) ?? '');
  const told = kept.startsWith('!');
  const recent = (told ? kept.slice(1) : kept)
    .split(' ')
    .map(Number)
    .filter((t) => t > 0 && t > date - limit.perSeconds);
  if (recent.length >= limit.perUser) {
    if (told) return { over: true, first: false };
    return { over: true, first: true, action: remember(`!${recent.join(' ')}`) };
  }
  return { over: false, action: remember([...recent, date].join(' ')) };
}

function remember(value: string): SetStateAction {
  return { type: 'set_state', scope: 'member', key: FLOOD_VARIABLE, value };
}

/** The answer to the first message over the limit: the first `event: flooding` rule whose conditions hold, or nothing. */
export function decideFlooding(
  event: MessageEvent | MediaEvent | OtherMessageEvent,
  ruleSet: RuleSet,
  state: ConversationState,
  context: DecideContext,
): Decision {
  const rules = ruleSet.index.events.get('flooding') ?? [];
  const { message } = event;
  const values = variablesOf(state);
  const whenHolds = audienceCheck(message, values, languageFor(ruleSet, event.from, state), context.botUsername, (context.now ?? Date.now)());
  const rule = rules.find((candidate) => conditionsPass(candidate, message, whenHolds));
  if (!rule) return { ruleId: null, actions: NONE };
  return answerRule(rule, { rule }, event, values, context, (vars) => languageFor(ruleSet, event.from, vars));
}
