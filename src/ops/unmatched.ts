// Which rule answered, counted per rule, and the messages no rule but a fallback answered (or nothing did):
// the metrics and the fields of the per-update log line that show an operator what the bot failed to
// answer. What users wrote reaches the log only when the operator opts in (`log.unmatched: true`).
import type { Decision } from '../engine/decide-types.js';
import type { BotEvent } from '../engine/events.js';
import type { RuleSet } from '../engine/rule-set.js';
import type { ServiceMetrics } from './metrics.js';

/**
 * `fallback`: only a fallback rule answered the text; `none`: nothing answered it; `suggested`: the closest
 * rules were offered instead (`suggest:`).
 */
export type UnmatchedOutcome = 'fallback' | 'none' | 'suggested';

/** For a text message that no ordinary rule matched, whether a fallback answered it; null for anything else. */
export function unmatchedOutcome(event: BotEvent, ruleId: string | null, ruleSet: RuleSet, suggested?: readonly string[]): UnmatchedOutcome | null {
  if (event.kind !== 'message') return null;
  if (suggested) return 'suggested';
  if (ruleId === null) return 'none';
  return ruleSet.index.fallbacks.some((rule) => rule.id === ruleId) ? 'fallback' : null;
}

export interface DecisionAnalyticsOptions {
  /** `log.unmatched`: put the text of an unmatched message in its log line. */
  logUnmatchedText: boolean;
  /** Whether the log is at debug level, where every message's text is logged anyway. */
  debug: boolean;
}

/**
 * Counts the decision (hits of its rule, or an unmatched message) and returns the fields it adds to the
 * update's log line: `unmatched` for a message no ordinary rule matched, and `text` when the operator asked
 * for it (or at debug level). The logger redacts tokens and secrets in every line, the text included.
 */
export function recordDecision(
  event: BotEvent,
  decision: Pick<Decision, 'ruleId' | 'via' | 'suggested' | 'contested'>,
  ruleSet: RuleSet,
  metrics: ServiceMetrics,
  options: DecisionAnalyticsOptions,
): Readonly<Record<string, unknown>> {
  if (decision.ruleId !== null) metrics.ruleHit(decision.ruleId);
  if (event.kind === 'bot_status') metrics.botStatus.inc({ change: event.status });
  if (decision.via?.kind === 'suggested') return recordPressedSuggestion(decision.ruleId, decision.via, metrics, options);
  const outcome = unmatchedOutcome(event, decision.ruleId, ruleSet, decision.suggested);
  if (outcome) metrics.unmatched.inc({ outcome });
  if (event.kind !== 'message') return NO_FIELDS;
  const showText = options.debug || (outcome !== null && options.logUnmatchedText);
  if (!outcome && !showText) return NO_FIELDS;
  return {
    ...(outcome ? { unmatched: outcome } : {}),
    ...(decision.suggested ? { suggested: decision.suggested } : {}),
    ...(decision.contested ? { contested: decision.contested } : {}),
    ...(showText ? { text: event.message.text } : {}),
  };
}

/**
 * A press of a suggestion: counted in hearsay_suggestions_total (`taken`, with the rule among the hits as any
 * answer is, or `declined` for "None of these"), and logged with the rule taken and, as for an unmatched
 * message, what the user had written when the operator asked for it — so `hearsay report --suggestions` can
 * say which phrasings to add to which rule.
 */
function recordPressedSuggestion(
  ruleId: string | null,
  via: { readonly text: string; readonly declined?: true },
  metrics: ServiceMetrics,
  options: DecisionAnalyticsOptions,
): Readonly<Record<string, unknown>> {
  metrics.suggestions.inc({ outcome: via.declined ? 'declined' : 'taken', rule: ruleId ?? '' });
  const showText = options.debug || options.logUnmatchedText;
  return {
    ...(via.declined ? { suggestion_declined: true } : { suggestion_taken: ruleId }),
    ...(showText ? { text: via.text } : {}),
  };
}

/** What most updates add to their log line: nothing (shared, never written to). */
const NO_FIELDS: Readonly<Record<string, unknown>> = Object.freeze({});
