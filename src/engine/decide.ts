// The pure engine entry: one event, the rule set, the conversation state and a little context in; a
// decision (what answered and the actions to perform) out. No I/O here: the caller performs the actions
// and commits the state changes they ask for. Callers read the live rule set once per event and pass it
// in, so a reload in the middle never mixes two sets.
import { answerRule } from './answer.js';
import { NOTHING, type Decision, type DecideContext } from './decide-types.js';
import { decideCallbackQuery } from './callbacks.js';
import type { BotEvent, MediaEvent, MemberEvent, MessageEvent, OtherMessageEvent } from './events.js';
import { decideHandoffSignal, decideStaff, endOnBlock, isHandedOff, relayFromCustomer } from './handoff.js';
import { withLiveVariables } from './lifetimes.js';
import { matchMessage } from './match.js';
import { decideMedia } from './media-events.js';
import { countMessage, markJoined } from './member-counts.js';
import { inEventTopic } from './topics.js';
import { decideFlooding, judgeFlood } from './flood-control.js';
import type { Action } from './actions.js';
import { decideFlowTimeout, routeInFlow, startFlow } from './flows.js';
import { keywordFound } from './keyword-found.js';
import type { MatchResult } from './match.js';
import { audienceCheck, decideMember, languageFor, matchTolerant } from './reach.js';
import { offerIfContested, offerSuggestions } from './suggest-decide.js';
import type { RuleSet } from './rule-set.js';
import { applyStateChanges, variablesOf, type ConversationState } from './state.js';
import { clearBlockedMark, decideStatusEvent } from './status-events.js';

export type { Decision, DecideContext } from './decide-types.js';

/**
 * Decides what to do about one event. A text message of a user inside a flow goes to the flow (cancel,
 * then during_flows rules, then the step); any other text message to the first matching rule in the
 * global order (found through the rule set's indexes), which may start a flow; `when` conditions read
 * `state`. A button press is answered exactly once: by the user's flow step when it is one of its options,
 * else by the first matching callback rule, else with an empty answer so the button stops spinning (see
 * callbacks.ts); a flow_timeout ends a flow that is due; a member joining or leaving gets the first `event`
 * rule for it; a photo, a document, a location … the first media rule for it (media-events.ts), unless a hand-off
 * relays it. In a forum topic, the answers go to that topic. Pure: the same inputs give the same decision.
 */
export function decide(event: BotEvent, ruleSet: RuleSet, stored: ConversationState, context: DecideContext): Decision {
  // Variables past the end of their life (`expires`) are not there any more, for anything decided now.
  const state = withLiveVariables(stored, (context.now ?? Date.now)());
  // In a forum, the answer goes to the topic of the message it answers.
  return inEventTopic(event, decideEvent(event, ruleSet, state, context));
}

function decideEvent(event: BotEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext): Decision {
  switch (event.kind) {
    case 'message':
    case 'media':
    case 'other_message':
      return decideIncoming(event, ruleSet, state, context);
    case 'bot_status': {
      const decision = decideStatusEvent(event, ruleSet, state, context);
      // A handed-off customer who blocks the bot: the hand-off ends now, not at the next staff message.
      const ended = event.status === 'blocked' ? endOnBlock(event.chat.id, state, context) : [];
      return ended.length === 0 ? decision : { ruleId: decision.ruleId ?? 'handoff#blocked', actions: [...decision.actions, ...ended] };
    }
    case 'join_request':
    case 'member_restricted':
      return decideStatusEvent(event, ruleSet, state, context);
    case 'callback_query':
      return decideCallbackQuery(event, ruleSet, state, context, (context.now ?? Date.now)());
    case 'flow_timeout':
      return decideFlowTimeout(event, ruleSet, state, (context.now ?? Date.now)());
    case 'handoff_signal':
      return decideHandoffSignal(event, ruleSet, state, context);
    case 'member_joined':
    case 'member_left': {
      const joined = ruleSet.keepsMembers ? markJoined(event, context.botUsername) : [];
      const decision = decideMemberEvent(event, ruleSet, state, context);
      return joined.length > 0 ? { ...decision, actions: [...joined, ...decision.actions] } : decision;
    }
  }
}

/**
 * A user's message, text or not: counted (member.messages), judged against the flood limit (limits.incoming:
 * beyond it, only the first gets the `event: flooding` rule; the rest nothing), then answered.
 */
function decideIncoming(event: MessageEvent | MediaEvent | OtherMessageEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext): Decision {
  const changes: Action[] = [];
  const counted = ruleSet.keepsMembers ? countMessage(event, state) : undefined;
  if (counted) changes.push(counted.action);
  // Staff relaying in a hand-off's group are not flooding.
  const limit = event.from && event.chat.id !== context.handoff?.chatId ? ruleSet.incomingLimit : undefined;
  const flood = limit ? judgeFlood(limit, counted?.state ?? state, event.message.date) : undefined;
  if (flood?.action) changes.push(flood.action);
  const seen = changes.length > 0 ? applyStateChanges(state, changes) : state;
  // A user marked as having blocked the bot who writes has unblocked it.
  const unblocked = event.from ? clearBlockedMark(state) : undefined;
  if (unblocked) changes.push(unblocked);
  let decision: Decision;
  if (flood?.over) decision = flood.first ? decideFlooding(event, ruleSet, seen, context) : NOTHING;
  else if (event.kind === 'message') decision = decideMessage(event, ruleSet, seen, context);
  else if (event.kind === 'media') decision = duringHandoff(event, seen, context) ?? decideMedia(event, ruleSet, seen, context);
  else decision = decideOtherMessage(event, seen, context);
  return changes.length > 0 ? { ...decision, actions: [...changes, ...decision.actions] } : decision;
}

function decideMemberEvent(event: MemberEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext): Decision {
  return decideMember(event, ruleSet, state, context, (match, message) =>
    answerRule(match.rule, match, { message, chat: event.chat, ...(message.from ? { from: message.from } : {}) }, variablesOf(state), context, (vars) =>
      languageFor(ruleSet, message.from, vars),
    ),
  );
}

function decideMessage(event: MessageEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext): Decision {
  if (context.handoff) {
    const handedOff = decideDuringHandoff(event, ruleSet, state, context);
    if (handedOff) return handedOff;
  }
  const now = (context.now ?? Date.now)();
  // Flows are per user: a message sent on behalf of a chat is never inside one.
  const position = event.from ? state.flow : null;
  if (!position) return decideOutsideFlow(event, ruleSet, state, context, now);
  const routed = routeInFlow(event, ruleSet, state, position, context, now);
  if (routed.kind === 'decided') return routed.decision;
  // The flow was left (timed out, or removed by a reload) before this message: say so, then answer it as any other.
  const after = decideOutsideFlow(event, ruleSet, { ...state, flow: null }, context, now);
  const how = {
    ...(after.keyword !== undefined ? { keyword: after.keyword } : {}),
    ...(after.via ? { via: after.via } : {}),
    ...(after.suggested ? { suggested: after.suggested } : {}),
  };
  return { ruleId: after.ruleId ?? routed.decision.ruleId, actions: [...routed.decision.actions, ...after.actions], ...how };
}

/**
 * With hand-off configured: a staff message (relayed, or an end word), or a message of a handed-off customer
 * (a during_handoff rule answers it, anything else is relayed to staff without a word from the bot); null
 * when the rules answer it as usual.
 */
function decideDuringHandoff(event: MessageEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext): Decision | null {
  const staff = decideStaff(event.message, state, context);
  if (staff) return staff;
  if (!event.from || event.chat.type !== 'private' || !isHandedOff(state)) return null;
  const values = variablesOf(state);
  const language = languageFor(ruleSet, event.from, state);
  const whenHolds = audienceCheck(event.message, values, language, context.botUsername, (context.now ?? Date.now)());
  const during = matchMessage(event.message, { index: ruleSet.duringHandoffIndex }, context.botUsername, whenHolds);
  if (during) return answerRule(during.rule, during, event, values, context, (vars) => languageFor(ruleSet, event.from, vars));
  return relayFromCustomer(event.message, context);
}

/** A message without text: only a hand-off does anything with it (relays it, or notes a staff topic). */
function decideOtherMessage(event: OtherMessageEvent, state: ConversationState, context: DecideContext): Decision {
  return duringHandoff(event, state, context) ?? NOTHING;
}

/**
 * A message without text (media, a dice, a service message) during a hand-off: a staff member's is relayed (or
 * noted), a handed-off customer's copied to staff; null when the hand-off has nothing to do with it.
 */
function duringHandoff(event: OtherMessageEvent | MediaEvent, state: ConversationState, context: DecideContext): Decision | null {
  if (!context.handoff) return null;
  const staff = decideStaff(event.message, state, context);
  if (staff) return staff;
  if (event.from && event.chat.type === 'private' && isHandedOff(state)) return relayFromCustomer(event.message, context);
  return null;
}

function decideOutsideFlow(event: MessageEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext, now: number): Decision {
  const values = variablesOf(state);
  const language = languageFor(ruleSet, event.from, state);
  const whenHolds = audienceCheck(event.message, values, language, context.botUsername, now);
  const match = matchTolerant(event.message, ruleSet, context.botUsername, whenHolds, ruleSet.index, language);
  // Staff talking among themselves in the hand-off's group get no fallback (nor suggestions); rules that match answer.
  if (event.chat.id === context.handoff?.chatId && (!match || match.rule.trigger.kind === 'fallback')) return NOTHING;
  // Unsure (nothing but a fallback matched): ask with suggestions, when the rules declare them.
  const offer =
    ruleSet.suggestions && (!match || match.rule.trigger.kind === 'fallback') ? offerSuggestions(event, ruleSet, match, whenHolds, language) : undefined;
  if (offer) return offer;
  if (!match) return NOTHING;
  // Unsure (a keyword matched, but another rule is closer to the message): ask, when the rules say so; never among staff.
  const contested =
    ruleSet.suggestions?.settings.whenContested && event.chat.id !== context.handoff?.chatId && offerIfContested(event, ruleSet, match, whenHolds, language);
  if (contested) return contested;
  const decision =
    match.rule.startsFlow !== undefined
      ? startFlow(match.rule, match, event, ruleSet, state, now)
      : answerRule(match.rule, match, event, values, context, (vars) => languageFor(ruleSet, event.from, vars));
  const how = match.via ? { ...decision, via: match.via } : decision;
  if (match.rule.trigger.kind !== 'keywords') return how;
  // The keyword found, for the why of the answer: in the text as corrected when typos were.
  const keyword = keywordFound(match.rule, correctedMessage(event.message, match.via), ruleSet, context.botUsername);
  return keyword === undefined ? how : { ...how, keyword };
}

/** The message with the corrections of `via` applied (the words as the fuzzy match read them). */
function correctedMessage(message: MessageEvent['message'], via: MatchResult['via']): MessageEvent['message'] {
  if (via?.kind !== 'corrected' || typeof message.text !== 'string') return message;
  let text = message.text.toLowerCase();
  for (const { from, to } of via.corrections)
    text = text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'gu'), to);
  return { ...message, text, entities: [] } as MessageEvent['message'];
}
