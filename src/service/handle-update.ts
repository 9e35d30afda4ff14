// Handles one update: skip what was handled before or is nothing the engine acts on, decide against the
// rule set read once, perform the actions, then log one line and remember the update as handled.
import { TokenRejectedError, classifyFailure } from '../api/failure.js';
import type { BotApi, Update } from '../api/types.js';
import type { HandledUpdates } from '../delivery/handled-updates.js';
import type { ReplySender, SendOutcome } from '../delivery/reply-sender.js';
import type { UpdateHandler } from '../delivery/dispatcher.js';
import type { Action, AnswerCallbackAction } from '../engine/actions.js';
import { decide } from '../engine/decide.js';
import { toEvent } from '../engine/events.js';
import type { RuleSet } from '../engine/rule-set.js';
import { EMPTY_STATE } from '../engine/state.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';

export interface UpdateHandlerDeps {
  /** The live rule set (a RuleWatcher); read once per update. */
  rules: { readonly current: RuleSet };
  botUsername: string;
  sender: ReplySender;
  /** Answers button presses (sendmessage goes through `sender`). */
  api: Pick<BotApi, 'answerCallbackQuery'>;
  handled: HandledUpdates;
  logger: Logger;
  metrics: ServiceMetrics;
  random?: () => number;
}

/** Builds the dispatcher's handler for the running service. */
export function createUpdateHandler(deps: UpdateHandlerDeps): UpdateHandler {
  const { logger, metrics } = deps;
  const context = { botUsername: deps.botUsername, ...(deps.random ? { random: deps.random } : {}) };
  return async (update: Update, signal: AbortSignal) => {
    const started = performance.now();
    const updateId = update.update_id;
    if (await deps.handled.has(updateId, update)) {
      logger.debug({ update_id: updateId }, 'update already handled; ignored');
      return;
    }
    const event = toEvent(update);
    // Member events have no rule triggers yet: they stay ignored, as before the engine recognised them.
    if (!event || event.kind === 'member_joined' || event.kind === 'member_left') {
      const message = update.message;
      const kind = message ? 'message without text' : (Object.keys(update).find((k) => k !== 'update_id') ?? 'unknown');
      logger.debug({ update_id: updateId, kind }, 'update ignored: only text messages are answered');
      await deps.handled.add(updateId, update);
      return;
    }
    const ruleSet = deps.rules.current;
    const matchStarted = performance.now();
    const decision = decide(event, ruleSet, EMPTY_STATE, context);
    metrics.matchDuration.observe((performance.now() - matchStarted) / 1000);
    // The intent goes to the journal before the actions, the result right after they finish: after a
    // crash, only updates caught between the two can be answered twice, and the journal names them.
    if (decision.actions.length > 0) await deps.handled.begin?.(updateId);
    let outcome: SendOutcome | null = null;
    for (const action of decision.actions) {
      const sent = await perform(action, decision.ruleId, deps, signal);
      if (sent) outcome = outcome ? { sent: outcome.sent + sent.sent, dropped: outcome.dropped || sent.dropped } : sent;
    }
    await deps.handled.add(updateId, update);
    logger.info(
      {
        update_id: updateId,
        chat_id: event.chat?.id ?? null,
        rule: decision.ruleId,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        ...(outcome ? { sent: outcome.sent, dropped: outcome.dropped } : {}),
        // What users write is theirs: it reaches the log only when the operator asks for debug output.
        ...(event.kind === 'message' && logger.isLevelEnabled('debug') ? { text: event.message.text } : {}),
      },
      'update handled',
    );
  };
}

/** Performs one action; returns the delivery outcome of a sent message. */
async function perform(action: Action, ruleId: string | null, deps: UpdateHandlerDeps, signal: AbortSignal): Promise<SendOutcome | null> {
  switch (action.type) {
    case 'send_message': {
      // The sender does not carry a keyboard yet; decide produces none until buttons come.
      const { type: _type, replyMarkup: _markup, ...reply } = action;
      return deps.sender.send({ ruleId, ...reply }, signal);
    }
    case 'answer_callback':
      await answerCallback(action, deps, signal);
      return null;
    case 'edit_message_text':
    case 'set_state':
    case 'set_flow':
      // decide produces neither yet; the update pipeline performs them when it arrives.
      deps.logger.warn({ action: action.type }, 'action not supported yet; skipped');
      return null;
  }
}

/** One attempt: an unanswered press only leaves the button spinning a while, so a failure is logged and counted, not retried. */
async function answerCallback(action: AnswerCallbackAction, deps: UpdateHandlerDeps, signal: AbortSignal): Promise<void> {
  try {
    await deps.api.answerCallbackQuery(
      {
        callback_query_id: action.callbackQueryId,
        ...(action.text !== undefined ? { text: action.text } : {}),
        ...(action.showAlert ? { show_alert: true } : {}),
      },
      { signal },
    );
  } catch (error) {
    const failure = classifyFailure(error);
    if (failure.action === 'aborted' || signal.aborted) throw error;
    deps.metrics.error(failure.kind);
    // 401 is never this update's fault: it stays unhandled and the service stops taking updates.
    if (failure.action === 'stop') throw new TokenRejectedError('answercallbackquery');
    deps.logger.warn(
      { callback_query_id: action.callbackQueryId, reason: error instanceof Error ? error.message : String(error) },
      'answercallbackquery failed',
    );
  }
}
