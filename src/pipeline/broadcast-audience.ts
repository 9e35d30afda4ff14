// Who a broadcast goes to: the `--to` conditions of `hearsay broadcast` read and checked against the variables a
// store keeps of each user. `user.NAME=VALUE` (the variable holds that value, compared as text), `user.NAME!=VALUE`
// (it does not, or is not set), `user.NAME exists`, `all` (everyone); several must all hold. A user who blocked the
// bot (`user._blocked`) is never in an audience, and a variable past its lifetime counts as not set.
import { withLiveVariables } from '../engine/lifetimes.js';
import type { StateValue } from '../engine/state.js';
import { BLOCKED_VARIABLE } from '../engine/status-events.js';
import type { KnownUser } from './broadcast-port.js';

/** One condition, read. */
export type AudienceCondition =
  | { readonly kind: 'equals'; readonly name: string; readonly value: string }
  | { readonly kind: 'differs'; readonly name: string; readonly value: string }
  | { readonly kind: 'exists'; readonly name: string };

/** A `--to` that is none of the forms. */
export class AudienceSyntaxError extends Error {
  override readonly name = 'AudienceSyntaxError';
}

const NAME = '[A-Za-z_][A-Za-z0-9_]{0,63}';
const COMPARISON = new RegExp(`^user\\.(${NAME})\\s*(!=|=)\\s*(.*)$`);
const EXISTS = new RegExp(`^user\\.(${NAME})\\s+exists$`);

/** Reads the `--to` conditions as written; `all` alone (or with others) adds none. */
export function parseAudience(conditions: readonly string[]): AudienceCondition[] {
  if (conditions.length === 0) throw new AudienceSyntaxError("say whom to send to: --to 'user.NAME=VALUE' (or --to all)");
  const parsed: AudienceCondition[] = [];
  for (const written of conditions) {
    const text = written.trim();
    if (text === 'all') continue;
    const exists = EXISTS.exec(text);
    if (exists) {
      parsed.push({ kind: 'exists', name: exists[1]! });
      continue;
    }
    const comparison = COMPARISON.exec(text);
    if (!comparison) {
      throw new AudienceSyntaxError(
        `--to '${written}' is not a condition: write 'user.NAME=VALUE', 'user.NAME!=VALUE', 'user.NAME exists' or 'all' (NAME a user variable)`,
      );
    }
    const value = unquoted(comparison[3]!.trim());
    parsed.push({ kind: comparison[2] === '=' ? 'equals' : 'differs', name: comparison[1]!, value });
  }
  return parsed;
}

function unquoted(value: string): string {
  return /^(["']).*\1$/.test(value) && value.length >= 2 ? value.slice(1, -1) : value;
}

/** Whether a user with these variables (read at `now`) is in the audience. */
export function inAudience(variables: Readonly<Record<string, unknown>>, conditions: readonly AudienceCondition[], now: number): boolean {
  const live = withLiveVariables({ user: variables as Record<string, StateValue>, chat: {}, flow: null }, now).user;
  if (Object.hasOwn(live, BLOCKED_VARIABLE)) return false;
  return conditions.every((condition) => {
    const value = Object.hasOwn(live, condition.name) ? live[condition.name] : undefined;
    if (condition.kind === 'exists') return value !== undefined && value !== null;
    const same = value !== undefined && value !== null && textOf(value) === condition.value;
    return condition.kind === 'equals' ? same : !same;
  });
}

function textOf(value: StateValue): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The users of `users` in the audience, in the order of their ids. */
export function audienceOf(users: readonly KnownUser[], conditions: readonly AudienceCondition[], now: number): KnownUser[] {
  return users.filter((user) => user.userId > 0 && inAudience(user.variables, conditions, now)).sort((a, b) => a.userId - b.userId);
}
