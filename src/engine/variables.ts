// Variables in rules: `when` conditions on user.*, chat.*, member.* and flow.* values, and `set` assignments
// to user.*, chat.* and member.* (the user in this chat). Both are compiled once at load time; evaluating them reads only the state snapshot
// decide was given, and applying assignments yields set_state actions plus the updated variables (so the
// reply of the same rule sees the new values).
import { HANDOFF_VARIABLE } from './handoff.js';
import type { Assignments, Conditions } from '../generated/rules-schema.js';
import type { SetStateAction } from './actions.js';
import { compareWithBound, parseMomentBound, type MomentBound } from './date-bounds.js';
import { normalize } from './normalize.js';
import { render, type RenderValues } from './render.js';
import { MAX_VALUE_LENGTH, valueIn, type StateValue } from './state.js';
import { expiryKey, expiryOf, hasExpiry, lifetimeOf, type CompiledLifetime } from './lifetimes.js';
import { compileTemplate, type Template, type TemplateContext } from './template.js';

/** A scope a condition can read: the user's, the chat's and the member's variables, or the current flow's answers. */
export type VariableScope = 'user' | 'chat' | 'member' | 'flow';

type Owner = 'user' | 'chat' | 'member';

const VARIABLE_KEY = /^(user|chat|member|flow)\.([A-Za-z_][A-Za-z0-9_]{0,63})$/;

/** One compiled `when` entry: the variable and what must hold for it. */
export interface CompiledCondition {
  readonly scope: VariableScope;
  readonly key: string;
  readonly exists?: boolean;
  readonly equals?: StateValue;
  readonly not?: StateValue;
  readonly gt?: number;
  readonly gte?: number;
  readonly lt?: number;
  readonly lte?: number;
  /** A date or time after / before this (judged at the moment, in `zone`). */
  readonly after?: MomentBound;
  readonly before?: MomentBound;
  readonly zone?: string;
}

/** One compiled `set` entry. */
export type CompiledAssignment =
  | { readonly scope: Owner; readonly key: string; readonly kind: 'template'; readonly template: Template; readonly expires?: CompiledLifetime }
  | { readonly scope: Owner; readonly key: string; readonly kind: 'number'; readonly value: number; readonly expires?: CompiledLifetime }
  | { readonly scope: Owner; readonly key: string; readonly kind: 'increment'; readonly by: number; readonly expires?: CompiledLifetime }
  | { readonly scope: Owner; readonly key: string; readonly kind: 'unset' };

/** The values conditions and templates read: the user's, chat's and member's variables and, inside a flow, its answers. */
export interface VariableValues {
  readonly user: Readonly<Record<string, StateValue>>;
  readonly chat: Readonly<Record<string, StateValue>>;
  /** The user's variables in this chat; absent: none. */
  readonly member?: Readonly<Record<string, StateValue>>;
  readonly flow?: Readonly<Record<string, StateValue>>;
}

/** Reports a problem at a key of the `when` or `set` mapping (`key` undefined: the mapping itself). */
export type VariableProblemSink = (key: string | undefined, message: string, severity?: 'error' | 'warning') => void;

/** Where conditions are written: which flow answers exist there, if any (for flow.* keys). */
export interface VariableSite {
  /** What the site is called in messages, e.g. "rule 'greet'" or "done of flow 'booking'". */
  readonly name: string;
  readonly flow?: TemplateContext['flow'];
  /** The rules' time zone, for `after`/`before` (UTC when absent). */
  readonly zone?: string;
}

function parseKey(key: string, site: VariableSite, report: VariableProblemSink, what: 'when' | 'set'): { scope: VariableScope; key: string } | undefined {
  const m = VARIABLE_KEY.exec(key);
  if (!m) {
    const scope = key.split('.')[0];
    const known = what === 'set' ? 'user.NAME, chat.NAME or member.NAME' : 'user.NAME, chat.NAME, member.NAME or flow.STEP';
    const why = key.includes('.') ? `unknown scope '${scope}'` : 'no scope';
    report(key, `'${key}' in the \`${what}\` of ${site.name}: ${why}; write ${known} (names: letters, digits, '_', at most 64)`);
    return undefined;
  }
  const scope = m[1] as VariableScope;
  const name = m[2]!;
  if (scope === 'flow') {
    if (what === 'set') {
      report(key, `'${key}' in the \`set\` of ${site.name}: a flow's answers come from its steps; set user.NAME, chat.NAME or member.NAME instead`);
      return undefined;
    }
    if (!site.flow) {
      report(key, `'${key}' in the \`when\` of ${site.name}: flow answers exist only inside a flow (in its done branches)`);
      return undefined;
    }
    if (!site.flow.answered.includes(name)) {
      const why = site.flow.steps.includes(name) ? 'is not answered yet at this point' : 'does not exist';
      report(key, `'${key}' in the \`when\` of ${site.name}: step '${name}' of flow '${site.flow.id}' ${why}`);
      return undefined;
    }
  }
  return { scope, key: name };
}

/** Compiles a `when` mapping; null when there is none (or nothing valid in it). */
export function compileConditions(when: Conditions | undefined, site: VariableSite, report: VariableProblemSink): readonly CompiledCondition[] | null {
  if (!when) return null;
  const out: CompiledCondition[] = [];
  for (const [raw, test] of Object.entries(when)) {
    // `handoff: true|false`: whether the user is handed off to a person (their `_handoff` variable).
    if (raw === 'handoff' && typeof test === 'boolean') {
      out.push(Object.freeze({ scope: 'user' as const, key: HANDOFF_VARIABLE, exists: test }));
      continue;
    }
    const target = parseKey(raw, site, report, 'when');
    if (!target || test === undefined || typeof test === 'boolean') continue;
    const template = [test, typeof test === 'object' ? test.equals : undefined, typeof test === 'object' ? test.not : undefined].find(
      (value) => typeof value === 'string' && value.includes('{{'),
    );
    if (template !== undefined) {
      // Compared as written, the condition would silently never hold.
      report(
        raw,
        `'${raw}' in the \`when\` of ${site.name} compares with ${JSON.stringify(template)}: \`when\` compares with fixed values, {{…}} is not filled in there`,
      );
      continue;
    }
    if (typeof test === 'string' || typeof test === 'number') {
      out.push(Object.freeze({ ...target, equals: test }));
      continue;
    }
    const { gt, gte, lt, lte, after, before, ...rest } = test;
    const moments = momentBounds(raw, { after, before }, site, report);
    if (moments === undefined) continue;
    const low = Math.max(gt ?? -Infinity, gte ?? -Infinity);
    const high = Math.min(lt ?? Infinity, lte ?? Infinity);
    if (low > high || (low === high && (gt === low || lt === high)))
      report(raw, `the condition on '${raw}' in ${site.name} can never hold: no number is in that range`, 'warning');
    out.push(Object.freeze({ ...target, ...rest, ...numbers({ gt, gte, lt, lte }), ...moments }));
  }
  return out.length > 0 ? Object.freeze(out) : null;
}

/** Compiles a `set` mapping; its text values are templates judged by `context` (what the trigger fills). */
export function compileAssignments(
  set: Assignments | undefined,
  site: VariableSite,
  context: TemplateContext,
  report: VariableProblemSink,
): readonly CompiledAssignment[] {
  if (!set) return [];
  const out: CompiledAssignment[] = [];
  for (const [raw, value] of Object.entries(set)) {
    const target = parseKey(raw, site, report, 'set');
    if (!target || target.scope === 'flow' || value === undefined) continue;
    const scope = target.scope;
    const object = typeof value === 'object' ? value : undefined;
    const expires = object && 'expires' in object && object.expires !== undefined ? lifetimeOf(object.expires, site.zone) : undefined;
    if (expires && 'ms' in expires && expires.ms === 0) report(raw, `expires of '${raw}' in ${site.name} must be more than 0 (90s, 15m, 2h, 1d, midnight)`);
    const lifetime = expires ? { expires } : {};
    const given = object && 'value' in object ? object.value : value;
    if (typeof given === 'number') out.push({ scope, key: target.key, kind: 'number', value: given, ...lifetime });
    else if (typeof given === 'string') {
      const result = compileTemplate(given, context);
      if (result.ok) out.push({ scope, key: target.key, kind: 'template', template: result.template, ...lifetime });
      else for (const message of result.errors) report(raw, `${message} (in the \`set\` of ${site.name})`);
    } else if ('increment' in given) out.push({ scope, key: target.key, kind: 'increment', by: given.increment, ...lifetime });
    else out.push({ scope, key: target.key, kind: 'unset' });
  }
  return Object.freeze(out);
}

/** Sets (or, with null, deletes) a variable of a copied record. */
function write(record: Record<string, StateValue>, key: string, value: StateValue | null): void {
  if (value === null) delete record[key];
  else Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The new end of life an assignment gives its variable: a set with `expires` starts it again, an increment only
 * when its counter starts (or had none); a set or unset without one ends a lifetime it had (null), an increment without one keeps it. Undefined: unchanged.
 */
function lifetimeChange(a: CompiledAssignment, record: Readonly<Record<string, StateValue>>, fresh: boolean, now: number): number | null | undefined {
  const expires = a.kind === 'unset' ? undefined : a.expires;
  if (expires === undefined) return a.kind !== 'increment' && hasExpiry(record, a.key) ? null : undefined;
  if (a.kind !== 'increment' || fresh || !hasExpiry(record, a.key)) return expiryOf(expires, now);
  return undefined;
}

/** The numeric bounds that are given (none of them undefined, so a frozen condition has only what was written). */
function numbers(bounds: Pick<CompiledCondition, 'gt' | 'gte' | 'lt' | 'lte'>): Partial<CompiledCondition> {
  return Object.fromEntries(Object.entries(bounds).filter(([, v]) => v !== undefined));
}

/** `after`/`before` read (today, tomorrow, now, 2026-12-24, 19:00, 60d); undefined when one is not a date or time (reported). */
function momentBounds(
  raw: string,
  given: { after?: string | undefined; before?: string | undefined },
  site: VariableSite,
  report: VariableProblemSink,
): Pick<CompiledCondition, 'after' | 'before' | 'zone'> | undefined {
  const out: { after?: MomentBound; before?: MomentBound; zone?: string } = {};
  for (const key of ['after', 'before'] as const) {
    const text = given[key];
    if (text === undefined) continue;
    const bound = parseMomentBound(text);
    if (bound === undefined) {
      report(
        raw,
        `'${key}: ${text}' on '${raw}' in ${site.name} is not a date or time: write today, tomorrow, yesterday, now, a date (2026-12-24), a time (19:00) or days from today (60d)`,
      );
      return undefined;
    }
    out[key] = bound;
    out.zone = site.zone ?? 'UTC';
  }
  return out;
}

/** Whether a date or time value is after / before the condition's bounds at `now`; a value they cannot compare with fails. */
function inMoments(condition: CompiledCondition, value: StateValue | undefined, now: number): boolean {
  const zone = condition.zone ?? 'UTC';
  for (const [bound, sign] of [
    [condition.after, 1],
    [condition.before, -1],
  ] as const) {
    if (!bound) continue;
    const compared = compareWithBound(value, bound, now, zone);
    if (compared === undefined || Math.sign(compared) !== sign) return false;
  }
  return true;
}

/** A number for numeric comparison: a number, or a text that is only a number (2, -3, 2.5 or 2,5). */
export function numberOf(value: StateValue | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || !/^\s*[+-]?\d+(?:[.,]\d+)?\s*$/.test(value)) return undefined;
  return Number(value.trim().replace(',', '.'));
}

/** Equality as conditions see it: numbers as numbers, texts after normalisation (no case, NFKC, spaces collapsed). */
export function sameValue(a: StateValue, b: StateValue): boolean {
  const x = numberOf(a);
  const y = numberOf(b);
  if (x !== undefined && y !== undefined) return x === y;
  return normalize(String(a)) === normalize(String(b));
}

function holds(condition: CompiledCondition, value: StateValue | undefined, now: number): boolean {
  if ((condition.after || condition.before) && !inMoments(condition, value, now)) return false;
  if (condition.exists !== undefined && condition.exists !== (value !== undefined)) return false;
  if (condition.equals !== undefined && (value === undefined || !sameValue(value, condition.equals))) return false;
  if (condition.not !== undefined && value !== undefined && sameValue(value, condition.not)) return false;
  if (condition.gt === undefined && condition.gte === undefined && condition.lt === undefined && condition.lte === undefined) return true;
  const n = numberOf(value);
  if (n === undefined) return false;
  return (
    (condition.gt === undefined || n > condition.gt) &&
    (condition.gte === undefined || n >= condition.gte) &&
    (condition.lt === undefined || n < condition.lt) &&
    (condition.lte === undefined || n <= condition.lte)
  );
}

/** Whether every condition holds for these values at `now` (true for no conditions). */
export function conditionsHold(conditions: readonly CompiledCondition[] | null, values: VariableValues, now: number = Date.now()): boolean {
  if (!conditions) return true;
  return conditions.every((c) => holds(c, valueIn(values[c.scope], c.key), now));
}

/** What applying assignments gives: the actions asking for the changes and the variables after them. */
export interface AppliedAssignments {
  readonly actions: readonly SetStateAction[];
  readonly values: VariableValues;
}

/**
 * Applies assignments in order to a copy of the variables (a later entry sees an earlier one's result).
 * Text values are rendered without escaping (escaping belongs to a reply's parse mode) and cut to
 * MAX_VALUE_LENGTH; `user` entries are skipped when the message has no user (sent on behalf of a chat).
 */
export function applyAssignments(
  assignments: readonly CompiledAssignment[],
  values: VariableValues,
  renderValues: Omit<RenderValues, 'vars' | 'flow'>,
  hasUser: boolean,
): AppliedAssignments {
  if (assignments.length === 0) return { actions: [], values };
  const user: Record<string, StateValue> = { ...values.user };
  const chat: Record<string, StateValue> = { ...values.chat };
  const member: Record<string, StateValue> = { ...values.member };
  const actions: SetStateAction[] = [];
  for (const a of assignments) {
    // Without a user (a message on behalf of a chat) there is no user and no member to remember.
    if (a.scope !== 'chat' && !hasUser) continue;
    const record = a.scope === 'user' ? user : a.scope === 'chat' ? chat : member;
    let value: StateValue | null;
    let increment: number | undefined;
    // A counter with a lifetime starts again once its window is over (it is then absent): a fresh value, a new end.
    const fresh = a.kind === 'increment' && a.expires !== undefined && valueIn(record, a.key) === undefined;
    switch (a.kind) {
      case 'template':
        value = render(a.template, { ...renderValues, vars: { user, chat, member }, ...(values.flow ? { flow: values.flow } : {}) }).slice(0, MAX_VALUE_LENGTH);
        break;
      case 'number':
        value = a.value;
        break;
      case 'increment':
        value = (numberOf(valueIn(record, a.key)) ?? 0) + a.by;
        if (!fresh) increment = a.by;
        break;
      case 'unset':
        value = null;
        break;
    }
    write(record, a.key, value);
    actions.push({ type: 'set_state', scope: a.scope, key: a.key, value, ...(increment !== undefined ? { increment } : {}) });
    const end = lifetimeChange(a, record, fresh, renderValues.now ?? Date.now());
    if (end !== undefined) {
      write(record, expiryKey(a.key), end);
      actions.push({ type: 'set_state', scope: a.scope, key: expiryKey(a.key), value: end });
    }
  }
  return { actions, values: { user, chat, member, ...(values.flow ? { flow: values.flow } : {}) } };
}
