// The performer of `message` effects: a Bot API call the outbox makes for a rule (a message to a named chat,
// a copy or forward of the user's message, a message at a later time). The payload is the call itself,
// `{ method, params }`, and for a reminder its content in each language, of which the user's language when it
// goes out picks one; a long text goes out in parts as a reply does. What a failure means: the service
// refused it (400, 403: the chat is gone, the bot was removed) → given up; it may pass later (429, 5xx,
// network) → tried again; 401 → the token is refused (nothing was sent).
import { TokenRejectedError, classifyFailure } from '../api/failure.js';
import type { BotApi, MethodName } from '../api/types.js';
import type { EffectAttempt, EffectPerformer } from '../pipeline/outbox.js';
import { splitFormattedText } from './split-formatted.js';
import type { ParseMode } from '../engine/reply.js';
import { resolveLanguage, type LanguageSettings } from '../engine/languages.js';
import type { ChatStateStore } from '../pipeline/ports.js';

/** A `message` effect's payload. */
export interface MessageEffectPayload {
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** A reminder's text and buttons in each language the rules speak: the user's language when it goes out picks one (else `params` as set). */
  readonly languages?: {
    readonly user: number;
    /** The user's client language code when the reminder was set. */
    readonly client?: string;
    readonly content: Readonly<Record<string, Record<string, unknown>>>;
  };
}

/** The language a user has now (their stored choice, else `client`, else the default); undefined without a `languages` block. */
export type UserLanguage = (userId: number, client: string | undefined) => Promise<string | undefined>;

/**
 * The performer of `message` effects over the service's client (its retry, rate limits and watchers); `languageOf`
 * picks a reminder's language as it goes out (without it, the language of the moment it was set).
 */
export function messageEffectPerformer(api: BotApi, languageOf?: UserLanguage): EffectPerformer {
  return async (effect, signal) => {
    const payload = effect.payload as unknown as MessageEffectPayload;
    const method = payload.method;
    const params = await inLanguageOfNow(payload, languageOf);
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

/** The user's language now as the rules choose it (`languages()`: the current rules' block), from their stored variables. */
export function storedUserLanguage(state: Pick<ChatStateStore, 'load'>, languages: () => LanguageSettings | undefined): UserLanguage {
  return async (userId, client) => {
    const settings = languages();
    if (!settings) return undefined;
    const stored = await state.load({ chatId: null, userId });
    return resolveLanguage(settings, client ? { language_code: client } : undefined, stored.user);
  };
}

async function inLanguageOfNow(payload: MessageEffectPayload, languageOf: UserLanguage | undefined): Promise<Record<string, unknown>> {
  if (!payload.languages || !languageOf) return payload.params;
  const language = await languageOf(payload.languages.user, payload.languages.client);
  const content = language === undefined ? undefined : payload.languages.content[language];
  return content ? { ...payload.params, ...content } : payload.params;
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
