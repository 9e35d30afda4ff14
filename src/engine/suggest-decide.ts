// The decisions of "when unsure, ask": offering the closest rules for a message no rule matched (or, with
// `when_contested`, for one a rule matched by its keywords while another rule is closer to it), and a press of
// one of those buttons, which answers exactly as that rule would have answered the message (or, for "None of
// these", as the fallback would have).
import type { Message } from '@grammyjs/types';
import type { Action } from './actions.js';
import { answerRule } from './answer.js';
import { conditionsPass } from './conditions.js';
import type { Decision, DecideContext } from './decide-types.js';
import type { CallbackQueryEvent, MessageEvent } from './events.js';
import type { MatchResult } from './match.js';
import { audienceCheck, languageFor } from './reach.js';
import type { CompiledRule, RuleSet } from './rule-set.js';
import { variablesOf, type ConversationState } from './state.js';
import { scoreMessage } from './suggest-index.js';
import { offerActions, rankScored, rankSuggestions, rememberedOffer, SUGGESTED_VARIABLE, SUGGESTION_DATA } from './suggestions.js';
import type { WhenCheck } from './conditions.js';

/**
 * The offer for a message that reached no rule but a fallback (or, in a private chat, no rule at all), when
 * the rules declare `suggest: { when_unmatched: true }` and some rule is close enough; undefined otherwise
 * (the fallback, if any, answers as before). Commands are never answered with suggestions, nor a message
 * sent on behalf of a chat (there is no user to remember the offer for).
 */
export function offerSuggestions(
  event: MessageEvent,
  ruleSet: RuleSet,
  match: MatchResult | null,
  whenHolds: WhenCheck,
  language: string | undefined,
): Decision | undefined {
  const suggestions = ruleSet.suggestions;
  if (!suggestions?.settings.whenUnmatched || !event.from) return undefined;
  if (match ? match.rule.trigger.kind !== 'fallback' : event.chat.type !== 'private') return undefined;
  const text = event.message.text;
  if (text.trimStart().startsWith('/')) return undefined;
  const rules = rankSuggestions(suggestions, text, event.message, whenHolds, suggestions.settings.max);
  if (rules.length === 0) return undefined;
  const replyTo = event.chat.type === 'private' ? undefined : event.message.message_id;
  const actions = offerActions(suggestions, rules, { message: event.message, language, replyTo });
  return { ruleId: null, actions, suggested: rules.map((rule) => rule.id) };
}

/**
 * `when_contested`: the offer for a message a rule matched by its keywords, when the suggestions' similarity
 * finds another rule closer to the message than that one (a broad keyword of one topic in a question about
 * another: "can I pay for my return at the store?"). The rule that matched is always among the suggestions,
 * the others best first; undefined (the rule answers) when none is closer, when the rule itself may not be
 * suggested (`suggest: false`, a flow start), for commands and messages sent on behalf of a chat.
 */
export function offerIfContested(
  event: MessageEvent,
  ruleSet: RuleSet,
  match: MatchResult,
  whenHolds: WhenCheck,
  language: string | undefined,
): Decision | undefined {
  const suggestions = ruleSet.suggestions;
  if (!suggestions?.settings.whenContested || !event.from || match.rule.trigger.kind !== 'keywords') return undefined;
  const matched = suggestions.rules.indexOf(match.rule);
  const text = event.message.text;
  if (matched < 0 || text.trimStart().startsWith('/')) return undefined;
  const scored = scoreMessage(suggestions.index, text);
  const own = scored.find((candidate) => candidate.doc === matched)?.score ?? 0;
  const ranked = rankScored(suggestions, scored, event.message, whenHolds, suggestions.settings.max);
  const closer = ranked.filter(({ rule, score }) => rule !== match.rule && score > own);
  if (closer.length === 0) return undefined;
  // The matched rule keeps its place among the best when it has one; else it takes the last.
  const others = ranked.filter(({ rule }) => rule !== match.rule).slice(0, suggestions.settings.max - 1);
  const rules = [...others, { rule: match.rule, score: own }].sort((a, b) => b.score - a.score).map(({ rule }) => rule);
  const replyTo = event.chat.type === 'private' ? undefined : event.message.message_id;
  const actions = offerActions(suggestions, rules, { message: event.message, language, replyTo });
  return { ruleId: null, actions, suggested: rules.map((rule) => rule.id), contested: match.rule.id };
}

/**
 * A press of a suggestion button: the rule offered there answers as if it had matched the message the offer
 * was for ({{text}} is what the user wrote), after the press is answered and the offer forgotten; "None of
 * these" gets the first fallback whose conditions hold. A press of an older offer's button, another user's,
 * or one whose rule a reload removed only stops the button spinning. Undefined for data that is no suggestion.
 */
export function pressSuggestion(event: CallbackQueryEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext): Decision | undefined {
  const pressed = event.data === undefined ? null : SUGGESTION_DATA.exec(event.data);
  if (!pressed) return undefined;
  const answered: Action = { type: 'answer_callback', callbackQueryId: event.id };
  const offer = rememberedOffer(state.user[SUGGESTED_VARIABLE]);
  if (!offer || offer.tag !== pressed[1] || !event.chat) return { ruleId: null, actions: [answered] };
  const message = { message_id: event.message?.message_id ?? 0, date: 0, chat: event.chat, from: event.from, text: offer.text } as Message;
  const values = variablesOf(state);
  const declined = pressed[2] === 'none';
  const rule = declined ? fallbackFor(ruleSet, message, values, state, context, event) : offeredRule(ruleSet, offer.ruleIds[Number(pressed[2])]);
  if (!rule) return { ruleId: null, actions: [answered] };
  const via = { kind: 'suggested' as const, text: offer.text, ...(declined ? { declined: true as const } : {}) };
  const decision = answerRule(rule, { rule, via }, { message, chat: event.chat, from: event.from }, values, context, (vars) =>
    languageFor(ruleSet, event.from, vars),
  );
  const forget: Action = { type: 'set_state', scope: 'user', key: SUGGESTED_VARIABLE, value: null };
  return { ruleId: decision.ruleId, actions: [answered, forget, ...decision.actions], via };
}

function offeredRule(ruleSet: RuleSet, id: string | undefined): CompiledRule | undefined {
  return id === undefined ? undefined : ruleSet.suggestions?.rules.find((rule) => rule.id === id);
}

function fallbackFor(
  ruleSet: RuleSet,
  message: Message,
  values: { user: ConversationState['user']; chat: ConversationState['chat'] },
  state: ConversationState,
  context: DecideContext,
  event: CallbackQueryEvent,
): CompiledRule | undefined {
  const whenHolds = audienceCheck(message, values, languageFor(ruleSet, event.from, state), context.botUsername, (context.now ?? Date.now)());
  return ruleSet.index.fallbacks.find((rule) => conditionsPass(rule, message, whenHolds));
}
