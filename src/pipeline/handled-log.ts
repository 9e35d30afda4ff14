// The "update handled" line (one per update at info level; the pipeline asks for it only when that level is on),
// what an update no rule answers is called in the debug line that says it was ignored, and what the pipeline
// tells an `onHandled` listener (the sandbox's "why" of an answer): the same record for both.
import type { Update } from '../api/types.js';
import type { Decision } from '../engine/decide-types.js';
import type { BotEvent } from '../engine/events.js';
import type { RuleSet } from '../engine/rule-set.js';
import type { Logger } from '../log/logger.js';
import { explain, type Explanation } from './explanation.js';
import type { PerformOutcome } from './pipeline-options.js';
import type { StateChange } from './ports.js';

/** What the line says of one handled update; `started` is performance.now() when its turn began. */
export interface HandledUpdate {
  /** Null for a flow's timeout, which no update brings. */
  update: Update | null;
  event: BotEvent;
  decision: Decision;
  /** The rule set the decision was made with. */
  ruleSet: RuleSet;
  /** The decision's state changes, committed with the update. */
  changes: readonly StateChange[];
  started: number;
  outcome: PerformOutcome | null;
  /** `unmatched`, and what the user wrote only at debug level or, for an unmatched message, with log.unmatched. */
  analytics: Readonly<Record<string, unknown>>;
}

/** Why the update was answered as it was (see explanation.ts), timed up to now. */
export function explainHandled(handled: HandledUpdate): Explanation {
  return explain(handled.decision, handled.changes, handled.ruleSet, performance.now() - handled.started);
}

/** Logs "update handled" at info level: the rule, how it matched, the variables it changed (names only), the time taken. */
export function logHandled(logger: Logger, handled: HandledUpdate & { update: Update }, explanation: Explanation = explainHandled(handled)): void {
  const { update, event, outcome, analytics } = handled;
  logger.info(
    {
      update_id: update.update_id,
      chat_id: event.chat?.id ?? null,
      rule: explanation.rule,
      match: explanation.match,
      ...(explanation.keyword !== undefined ? { keyword: explanation.keyword } : {}),
      ...(explanation.corrected ? { corrected: explanation.corrected.map(({ from, to }) => `${from} → ${to}`) } : {}),
      ...(explanation.changed.length > 0 ? { changed: explanation.changed.map((change) => change.name) } : {}),
      duration_ms: explanation.ms,
      ...(outcome ? { sent: outcome.sent, dropped: outcome.dropped } : {}),
      ...analytics,
    },
    'update handled',
  );
}

/** What an update that no rule answers holds (for the debug line): its one field besides update_id. */
export function ignoredKind(update: Update): string {
  return update.message ? 'message without text' : (Object.keys(update).find((k) => k !== 'update_id') ?? 'unknown');
}
