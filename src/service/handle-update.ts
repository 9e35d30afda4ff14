// Handles one update: skip what was handled before or is not a text message, match against the rule
// set read once, send the reply, then log one line and remember the update as handled.
import type { Update } from '../api/types.js';
import type { HandledUpdates } from '../delivery/handled-updates.js';
import type { ReplySender } from '../delivery/reply-sender.js';
import type { UpdateHandler } from '../delivery/dispatcher.js';
import { respond } from '../engine/respond.js';
import type { RuleSet } from '../engine/rule-set.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';

export interface UpdateHandlerDeps {
  /** The live rule set (a RuleWatcher); read once per update. */
  rules: { readonly current: RuleSet };
  botUsername: string;
  sender: ReplySender;
  handled: HandledUpdates;
  logger: Logger;
  metrics: ServiceMetrics;
  random?: () => number;
}

export function createUpdateHandler(deps: UpdateHandlerDeps): UpdateHandler {
  const { logger, metrics } = deps;
  return async (update: Update, signal: AbortSignal) => {
    const started = performance.now();
    const updateId = update.update_id;
    if (await deps.handled.has(updateId)) {
      logger.debug({ update_id: updateId }, 'update already handled; ignored');
      return;
    }
    const message = update.message;
    if (!message || typeof message.text !== 'string') {
      const kind = message ? 'message without text' : (Object.keys(update).find((k) => k !== 'update_id') ?? 'unknown');
      logger.debug({ update_id: updateId, kind }, 'update ignored: only text messages are answered');
      await deps.handled.add(updateId);
      return;
    }
    const ruleSet = deps.rules.current;
    const matchStarted = performance.now();
    const reply = respond(message, ruleSet, deps.botUsername, deps.random);
    metrics.matchDuration.observe((performance.now() - matchStarted) / 1000);
    // The intent goes to the journal before the send, the result right after it resolves: after a
    // crash, only updates caught between the two can be answered twice, and the journal names them.
    if (reply) await deps.handled.begin?.(updateId);
    const outcome = reply ? await deps.sender.send(reply, signal) : null;
    await deps.handled.add(updateId);
    logger.info(
      {
        update_id: updateId,
        chat_id: message.chat.id,
        rule: reply?.ruleId ?? null,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        ...(outcome ? { sent: outcome.sent, dropped: outcome.dropped } : {}),
      },
      'update handled',
    );
  };
}
