// What a hearsay process running a bot against the sandbox tells it (sandbox-only methods; the real service
// has no such thing and hearsay sends them only to a sandbox): the problems of its rules while the last good
// ones still answer (the page's banner for that bot), and why it answered each message (the page's "why").
import { EventEmitter } from 'node:events';
import { badRequest } from './api-failure.js';
import { targetChat } from './chat-target.js';
import type { MethodContext } from './method-context.js';
import type { Params } from './params.js';

/** One rule problem as the page shows it: `where` is `file:line:column` (or the file alone). */
export interface RuleProblemNotice {
  where: string;
  message: string;
}

export interface RuleStatus {
  bot: string;
  /** Empty when the bot's rules are fine again. */
  problems: RuleProblemNotice[];
}

/** Bounds on what a report may hold: the sandbox keeps it in memory and sends it to every open page. */
const MAX_PROBLEMS = 50;
const MAX_TEXT = 1000;
const MAX_WHY_BYTES = 16_384;
const MAX_MESSAGES = 100;

export class HearsayReports {
  private readonly events = new EventEmitter<{ rules: [RuleStatus] }>();
  private readonly problems = new Map<string, RuleProblemNotice[]>();

  /** Records the problems of `bot`'s rules; an empty list clears them. */
  setRuleProblems(bot: string, problems: RuleProblemNotice[]): void {
    if (problems.length === 0 && !this.problems.has(bot)) return;
    if (problems.length === 0) this.problems.delete(bot);
    else this.problems.set(bot, problems);
    this.events.emit('rules', { bot, problems });
  }

  /** Every bot whose rules have problems now. */
  ruleStatuses(): RuleStatus[] {
    return [...this.problems].map(([bot, problems]) => ({ bot, problems }));
  }

  onRules(listener: (status: RuleStatus) => void): () => void {
    this.events.on('rules', listener);
    return () => this.events.off('rules', listener);
  }
}

const text = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value.length > MAX_TEXT) throw badRequest(`${name} must be a text of at most ${MAX_TEXT} characters`);
  return value;
};

/** Parses a JSON-encoded parameter (form and query bodies carry nested values as JSON text). */
function jsonParam(params: Params, name: string): unknown {
  const value = params[name];
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest(`can't parse ${name} JSON`);
  }
}

/** setruleproblems (sandbox only): `problems`, a list of `{where, message}` (empty: the rules load again). */
export function setRuleProblems({ store, bot }: MethodContext, params: Params): true {
  const problems = jsonParam(params, 'problems');
  if (!Array.isArray(problems) || problems.length > MAX_PROBLEMS) throw badRequest(`problems must be a list of at most ${MAX_PROBLEMS}`);
  const notices = problems.map((problem: { where?: unknown; message?: unknown }) => ({
    where: text(problem?.where, 'where'),
    message: text(problem?.message, 'message'),
  }));
  store.reports.setRuleProblems(bot.username, notices);
  return true;
}

/**
 * explainupdate (sandbox only): why the bot answered as it did, shown under its answers on the page. `chat_id`,
 * `message_ids` (the bot's messages that answered; with none, `message_id`, the user's message nothing answered),
 * and `why`, a JSON object kept and shown as it is.
 */
export function explainUpdate({ store, bot }: MethodContext, params: Params): true {
  const why = jsonParam(params, 'why');
  if (why === null || typeof why !== 'object' || Array.isArray(why) || JSON.stringify(why).length > MAX_WHY_BYTES) {
    throw badRequest(`why must be a JSON object of at most ${MAX_WHY_BYTES} bytes`);
  }
  const ids = jsonParam(params, 'message_ids') ?? [];
  const single = params.message_id === undefined ? [] : [Number(params.message_id)];
  const messageIds = [...(Array.isArray(ids) ? ids : []), ...single].map(Number);
  if (messageIds.length > MAX_MESSAGES || messageIds.some((id) => !Number.isSafeInteger(id))) throw badRequest('message_ids must be message identifiers');
  const target = targetChat(store, bot, params, { write: false });
  for (const messageId of messageIds) store.explain(target.ref, messageId, why as Record<string, unknown>);
  return true;
}
