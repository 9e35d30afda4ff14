// Performs a rule's moderation (src/engine/moderation.ts) on the service: one Bot API call each, with the
// client's retry policy. A refusal never stops the rule: its other actions still run. A missing admin right is
// the operator's to fix, so it is logged once per chat and right (at warn, saying which right), then only
// counted; any other refusal (the message already gone, a member who left) is logged each time at info.
import { ApiError } from '../api/errors.js';
import { TokenRejectedError, classifyFailure } from '../api/failure.js';
import type { BotApi, MethodName } from '../api/types.js';
import type { ModerateAction } from '../engine/actions.js';
import { RIGHT_OF } from '../engine/compile-moderation.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';

/** The service's words for "the bot lacks the right for this", whatever the method. */
const MISSING_RIGHT =
  /not enough rights|CHAT_ADMIN_REQUIRED|^Bad Request: message can't be deleted$|need administrator rights|method is available (only )?for supergroups/;
/** Chats and rights already warned about; bounded, so a bot in very many chats cannot grow it without end. */
const MAX_WARNED = 10_000;

export class ModerationCalls {
  private readonly warned = new Set<string>();

  constructor(private readonly deps: { api: Pick<BotApi, 'call'>; logger: Logger; metrics?: ServiceMetrics }) {}

  /** Performs the call; `replyId` is the message a pinsReply action pins (undefined: the reply was not sent). */
  async perform(action: ModerateAction, replyId: number | undefined, signal: AbortSignal): Promise<void> {
    const { api, logger, metrics } = this.deps;
    if (action.pinsReply && replyId === undefined) return;
    const params = { chat_id: action.chatId, ...action.params, ...(action.pinsReply ? { message_id: replyId! } : {}) };
    try {
      await api.call(action.method as MethodName, params as never, { signal });
      metrics?.moderation.inc({ method: action.method, outcome: 'done' });
    } catch (error) {
      const failure = classifyFailure(error);
      if (failure.action === 'aborted' || signal.aborted) throw error;
      if (failure.action === 'stop') throw new TokenRejectedError(action.method);
      const reason = error instanceof ApiError ? error.description : error instanceof Error ? error.message : String(error);
      if (failure.action === 'drop' && MISSING_RIGHT.test(reason)) {
        metrics?.moderation.inc({ method: action.method, outcome: 'missing_right' });
        this.warnOnce(action, reason);
        return;
      }
      metrics?.moderation.inc({ method: action.method, outcome: 'failed' });
      logger.info({ chat_id: action.chatId, method: action.method, reason }, `${action.method} failed; the rule's other actions go on`);
    }
  }

  private warnOnce(action: ModerateAction, reason: string): void {
    const right = RIGHT_OF[action.method];
    const key = `${action.chatId}:${right}`;
    if (this.warned.has(key)) return;
    if (this.warned.size >= MAX_WARNED) this.warned.clear();
    this.warned.add(key);
    this.deps.logger.warn(
      { chat_id: action.chatId, method: action.method, right, reason },
      `the bot lacks the admin right ${right} in chat ${action.chatId}, so ${action.method} was refused: make it an administrator with ${right} there (logged once per chat and right; hearsay_moderation_total counts the rest)`,
    );
  }
}
