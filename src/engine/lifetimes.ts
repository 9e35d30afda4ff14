// Variables with a lifetime: `set: { user.msgs: { increment: 1, expires: 1m } }` (a counter that starts again once
// its window is over) and `{ value: V, expires: 1d }` or `expires: midnight` (a value forgotten after a while, or
// at the next midnight in the rules' zone). The end of a variable's life is kept next to it, under its name and
// `@expires` (a name no rule can write), in the same record; every decision reads a variable past its end as
// absent (conditions, templates, increments), so nothing has to sweep the store on time.
import { dateOf } from '../calendar/civil-date.js';
import { localDay } from '../calendar/opening-hours.js';
import { instantOf } from '../calendar/zone.js';
import { valueIn, type ConversationState, type StateValue } from './state.js';

/** What follows a variable's name to name the end of its life. */
export const EXPIRES_SUFFIX = '@expires';

/** A compiled `expires`: a duration from the set, or the next midnight in a zone. */
export type CompiledLifetime = { readonly ms: number } | { readonly midnight: string };

/** When a variable set at `now` with this lifetime is forgotten (ms since the epoch). */
export function expiryOf(lifetime: CompiledLifetime, now: number): number {
  if ('ms' in lifetime) return now + lifetime.ms;
  const { year, month, day } = dateOf(localDay(now, lifetime.midnight) + 1);
  return instantOf(year, month, day, 0, lifetime.midnight);
}

/** The key that holds when `key` is forgotten. */
export function expiryKey(key: string): string {
  return `${key}${EXPIRES_SUFFIX}`;
}

/** Whether the record keeps an end of life for `key`. */
export function hasExpiry(record: Readonly<Record<string, StateValue>>, key: string): boolean {
  return valueIn(record, expiryKey(key)) !== undefined;
}

/** The state as a decision at `now` sees it: variables past their end (and their ends) left out; the same object when none is. */
export function withLiveVariables(state: ConversationState, now: number): ConversationState {
  const user = liveIn(state.user, now);
  const chat = liveIn(state.chat, now);
  const member = state.member ? liveIn(state.member, now) : undefined;
  if (user === state.user && chat === state.chat && member === state.member) return state;
  return { ...state, user, chat, ...(member ? { member } : {}) };
}

function liveIn(record: Readonly<Record<string, StateValue>>, now: number): Readonly<Record<string, StateValue>> {
  let live: Record<string, StateValue> | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (!key.endsWith(EXPIRES_SUFFIX) || typeof value !== 'number' || value > now) continue;
    live ??= { ...record };
    delete live[key];
    delete live[key.slice(0, -EXPIRES_SUFFIX.length)];
  }
  return live ?? record;
}

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `expires:` as written (`90s`, `15m`, `2h`, `1d`, `midnight`; the schema holds it to these) in the rules' zone. */
export function lifetimeOf(text: string, zone: string | undefined): CompiledLifetime {
  if (text === 'midnight') return { midnight: zone ?? 'UTC' };
  const m = /^(\d+)([smhd])$/.exec(text);
  return { ms: m ? Number(m[1]) * UNIT_MS[m[2]!]! : 0 };
}
