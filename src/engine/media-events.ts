// Deciding on a message that carries a photo, a document, a location …: the first rule in the global order
// for its kind (`event: photo`) or for any media (`media: any`) whose caption filter and conditions pass
// answers it; inside a flow, the step that asks for that kind takes it (its file_id, "latitude,longitude" or
// phone number), a during_flows media rule answers first, and anything else asks the step's question again.
import type { Message } from '@grammyjs/types';
import { answerRule } from './answer.js';
import { conditionsPass, type WhenCheck } from './conditions.js';
import type { Decision, DecideContext } from './decide-types.js';
import { NOTHING } from './decide-types.js';
import type { MediaEvent } from './events.js';
import { answerStep, askTargetOf, flowLeftBefore } from './flows.js';
import { containsKeyword } from './keywords.js';
import type { MatchResult } from './match.js';
import { acceptedMedia } from './message-media.js';
import { normalize, normalizeForPattern } from './normalize.js';
import { audienceCheck, languageFor } from './reach.js';
import type { CompiledRule, RuleIndex, RuleSet } from './rule-set.js';
import type { ConversationState, FlowPosition } from './state.js';
import { applySynonyms, type SynonymTable } from './synonyms.js';

/** The decision for a message with media (see the module comment). */
export function decideMedia(event: MediaEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext): Decision {
  const now = (context.now ?? Date.now)();
  // Flows are per user: a message sent on behalf of a chat is never inside one.
  const position = event.from ? state.flow : null;
  if (!position) return answerMedia(event, ruleSet.index, ruleSet, state, context);
  const left = flowLeftBefore(event, ruleSet, state, position, now);
  if (!left) return inFlow(event, ruleSet, state, position, context, now);
  const after = answerMedia(event, ruleSet.index, ruleSet, { ...state, flow: null }, context);
  return { ruleId: after.ruleId ?? left.decision.ruleId, actions: [...left.decision.actions, ...after.actions] };
}

function inFlow(event: MediaEvent, ruleSet: RuleSet, state: ConversationState, position: FlowPosition, context: DecideContext, now: number): Decision {
  const during = answerMedia(event, ruleSet.duringFlowsIndex, ruleSet, state, context);
  if (during.ruleId !== null) return during;
  const flow = ruleSet.flows.get(position.flowId)!;
  const index = flow.stepIndex.get(position.stepId)!;
  const accept = flow.steps[index]!.accept;
  const value = accept.kind === 'media' ? acceptedMedia(event.message, accept.media) : undefined;
  const values = { user: state.user, chat: state.chat, flow: position.values };
  const target = askTargetOf(event, languageFor(ruleSet, event.from, state));
  return answerStep(flow, index, position, value, { message: event.message, target, hasUser: true, context }, values, now);
}

function answerMedia(event: MediaEvent, index: RuleIndex, ruleSet: RuleSet, state: ConversationState, context: DecideContext): Decision {
  const values = { user: state.user, chat: state.chat };
  const whenHolds = audienceCheck(event.message, values, languageFor(ruleSet, event.from, state), context.botUsername, (context.now ?? Date.now)());
  const match = matchMedia(event, index, whenHolds);
  if (!match) return NOTHING;
  return answerRule(match.rule, match, event, values, context, (vars) => languageFor(ruleSet, event.from, vars));
}

/** The first rule in the global order for the message's kind or for any media whose caption filter and conditions pass. */
export function matchMedia(event: Pick<MediaEvent, 'message' | 'media'>, index: RuleIndex, whenHolds: WhenCheck): MatchResult | null {
  const candidates = [...(index.events.get(event.media) ?? []), ...(index.events.get('any') ?? [])].sort((a, b) => a.order - b.order);
  for (const rule of candidates) {
    const match = captionMatch(rule, event.message, index.synonyms);
    if (match && conditionsPass(rule, event.message, whenHolds)) return match;
  }
  return null;
}

/** The rule's match when the message's caption passes its filter (a rule without one takes any caption, or none). */
function captionMatch(rule: CompiledRule, message: Message, synonyms: SynonymTable): MatchResult | undefined {
  const trigger = rule.trigger;
  if (trigger.kind !== 'media') return undefined;
  const filter = trigger.caption;
  if (!filter) return { rule };
  const caption = message.caption ?? '';
  if (filter.kind === 'pattern') {
    const captures = filter.pattern.captures(normalizeForPattern(caption));
    return captures ? { rule, captures } : undefined;
  }
  const text = rule.caseSensitive ? normalize(caption, true) : applySynonyms(normalize(caption), synonyms);
  return filter.keywords.some((keyword) => containsKeyword(text, keyword)) ? { rule } : undefined;
}
