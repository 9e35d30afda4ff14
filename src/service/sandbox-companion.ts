// Against hearsay's own sandbox only (its getMe names it; a real service never gets these calls): hearsay tells
// the chat page what it shows beside the chats — the problems of the rules while the last good ones answer (the
// banner), and why each answer was given (the "why" under it: the `update handled` line's data, see
// pipeline/explanation.ts) — and, when the token is refused, asks whether the sandbox restarted, so it can say
// so instead of "revoked". Any failure here is logged at debug and never touches the bot's work.
import { isAbsolute, relative } from 'node:path';
import { callNext, TransformedBotApi } from '../api/bot-api.js';
import type { BotApi, Transformer } from '../api/types.js';
import type { RuleProblem } from '../diagnostics/problem.js';
import type { Logger } from '../log/logger.js';
import type { Explanation } from '../pipeline/explanation.js';
import { explanationLines } from '../pipeline/explanation-text.js';
import type { HandledUpdate } from '../pipeline/handled-log.js';

/** Reports go out once each, quickly: the page is a convenience, the bot's answers are not. */
const REPORT_OPTIONS = { retry: { maxAttempts: 1 }, timeoutMs: 5000 } as const;

export interface SandboxCompanion {
  /** The Bot API for the perform step: as given, but noting which messages each chat's answer sent or edited. */
  readonly api: BotApi;
  /** Tells the page why the update was answered as it was (the pipeline's onHandled). */
  explain(handled: HandledUpdate, explanation: Explanation): void;
  /** Tells the page the rules' problems (errors only; empty: they load again). */
  ruleProblems(problems: readonly RuleProblem[]): void;
}

/** `path` as the page shows it: relative to where hearsay runs when it lies below it. */
function shownPath(path: string, cwd: string): string {
  const shown = relative(cwd, path);
  return shown.startsWith('..') || isAbsolute(shown) ? path : shown;
}

/** Notes the messages sent (sendmessage) and edited (editmessagetext) per chat until the answer is explained. */
function sentMessages(): { transformer: Transformer; take(chatId: number): number[] } {
  const byChat = new Map<number, number[]>();
  const note = (chatId: unknown, messageId: unknown) => {
    if (typeof chatId !== 'number' || typeof messageId !== 'number') return;
    const ids = byChat.get(chatId);
    if (ids) ids.push(messageId);
    else byChat.set(chatId, [messageId]);
  };
  const transformer: Transformer = (prev, method, params, options) => {
    const answer = callNext(prev, method, params, options);
    if (method === 'sendmessage') {
      const chatId = (params as { chat_id: unknown }).chat_id;
      return answer.then((result) => (note(chatId, (result as { message_id: number }).message_id), result));
    }
    if (method === 'editmessagetext') {
      const edited = params as { chat_id: unknown; message_id: unknown };
      return answer.then((result) => (note(edited.chat_id, edited.message_id), result));
    }
    return answer;
  };
  return {
    transformer,
    // A chat's answers are performed in its turn, one update after another: what was noted is this update's.
    take(chatId) {
      const ids = byChat.get(chatId) ?? [];
      byChat.delete(chatId);
      return ids;
    },
  };
}

/** The companion of a bot running against the sandbox; `cwd` is where rule paths are shown relative to. */
export function sandboxCompanion(api: BotApi, logger: Logger, cwd: string = process.cwd()): SandboxCompanion {
  const sent = sentMessages();
  const report = (what: string, call: Promise<unknown>) =>
    call.catch((error: unknown) => logger.debug({ reason: error instanceof Error ? error.message : String(error) }, `the sandbox did not take ${what}`));
  return {
    api: new TransformedBotApi(api, [sent.transformer]),
    explain(handled, explanation) {
      const chatId = handled.event.chat?.id;
      if (chatId === undefined) return;
      const messageIds = sent.take(chatId);
      // Nothing sent: the why goes on the user's message (no rule matched, or a rule that only remembers).
      const own = messageIds.length === 0 && handled.event.kind === 'message' ? { message_id: handled.event.message.message_id } : undefined;
      if (messageIds.length === 0 && !own) return;
      const why = { ...explanation, lines: explanationLines(explanation, (file) => shownPath(file, cwd)) };
      void report('an explanation', api.call('explainupdate', { chat_id: chatId, message_ids: messageIds, ...own, why }, REPORT_OPTIONS));
    },
    ruleProblems(problems) {
      const notices = problems
        .filter((problem) => problem.severity === 'error')
        .map((problem) => {
          const path = shownPath(problem.file, cwd);
          return { where: problem.line > 0 ? `${path}:${problem.line}:${problem.column}` : path, message: problem.message };
        });
      void report('the rule problems', api.call('setruleproblems', { problems: notices }, REPORT_OPTIONS));
    },
  };
}

/** After a refused token: whether the sandbox at `baseUrl` is another one than `instance` (it restarted and forgot the bot). */
export async function sandboxRestarted(baseUrl: string, instance: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/client/sandbox`, { signal: AbortSignal.timeout(5000) });
    const body = (await response.json()) as { ok?: boolean; result?: { instance?: unknown } };
    return body.ok === true && typeof body.result?.instance === 'string' && body.result.instance !== instance;
  } catch {
    return false;
  }
}
