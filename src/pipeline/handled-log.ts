// The "update handled" line (one per update at info level; the pipeline asks for it only when that level is on), and
// what an update no rule answers is called in the debug line that says it was ignored.
import type { Update } from '../api/types.js';
import type { BotEvent } from '../engine/events.js';
import type { Logger } from '../log/logger.js';
import type { PerformOutcome } from './pipeline-options.js';

/** What the line says of one handled update; `started` is performance.now() when its turn began. */
export interface HandledUpdate {
  update: Update;
  event: BotEvent;
  ruleId: string | null;
  started: number;
  outcome: PerformOutcome | null;
  /** `unmatched`, and what the user wrote only at debug level or, for an unmatched message, with log.unmatched. */
  analytics: Readonly<Record<string, unknown>>;
}

/** Logs "update handled" at info level. */
export function logHandled(logger: Logger, handled: HandledUpdate): void {
  const { update, event, ruleId, started, outcome, analytics } = handled;
  logger.info(
    {
      update_id: update.update_id,
      chat_id: event.chat?.id ?? null,
      rule: ruleId,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
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
