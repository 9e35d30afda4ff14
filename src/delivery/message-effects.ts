// The performer of `message` effects: a Bot API call the outbox makes for a rule (a message to a named chat,
// a copy or forward of the user's message, a message at a later time). The payload is the call itself,
// `{ method, params }`; a long text goes out in parts as a reply does. What a failure means: the service
// refused it (400, 403: the chat is gone, the bot was removed) → given up; it may pass later (429, 5xx,
// network) → tried again; 401 → the token is refused (nothing was sent).
import { TokenRejectedError, classifyFailure } from '../api/failure.js';
import type { BotApi, MethodName } from '../api/types.js';
import type { EffectAttempt, EffectPerformer } from '../pipeline/outbox.js';
import { splitFormattedText } from './split-formatted.js';
import type { ParseMode } from '../engine/reply.js';

/** A `message` effect's payload. */
export interface MessageEffectPayload {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** The performer of `message` effects over the service's client (its retry, rate limits and watchers). */
export function messageEffectPerformer(api: BotApi): EffectPerformer {
  return async (effect, signal) => {
    const { method, params } = effect.payload as unknown as MessageEffectPayload;
    const parts =
      method === 'sendmessage' && typeof params.text === 'string' ? splitFormattedText(params.text, params.parse_mode as ParseMode | undefined) : null;
    if (!parts || parts.length === 1) return attempt(() => api.call(method as MethodName, params as never, { signal }), method);
    // A long text: part by part; a part refused after others went out gives the rest up (as a reply does), never sends the first ones again.
    for (let index = 0; index < parts.length; index++) {
      const sent = await attempt(() => api.call('sendmessage', { ...params, text: parts[index] } as never, { signal }), method);
      if (sent.outcome === 'done') continue;
      if (index === 0) return sent;
      return { outcome: 'failed', reason: `part ${index + 1} of ${parts.length}: ${sent.reason}` };
    }
    return { outcome: 'done' };
  };
}

async function attempt(call: () => Promise<unknown>, method: string): Promise<EffectAttempt> {
  try {
    await call();
    return { outcome: 'done' };
  } catch (error) {
    const failure = classifyFailure(error);
    if (failure.action === 'aborted') throw error;
    if (failure.action === 'stop') throw new TokenRejectedError(method);
    const reason = error instanceof Error ? error.message : String(error);
    if (failure.action === 'wait_retry_after') return { outcome: 'retry', reason, retryAfterMs: failure.retryAfter! * 1000 };
    if (failure.action === 'backoff') return { outcome: 'retry', reason };
    return { outcome: 'failed', reason };
  }
}
