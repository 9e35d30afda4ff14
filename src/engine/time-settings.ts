// What the rule files say about time (`timezone:`, `hours:`), as the engine carries it into templates and
// conditions: the zone every wall-clock time is in, the named opening hours, and the languages block (dates
// and times are written in the language of the user answered). Also the `open:` condition, compiled against
// the named hours.
import { isOpenAt, type OpeningHours } from '../calendar/opening-hours.js';
import { nearest } from '../diagnostics/suggest.js';
import type { OpenCondition } from '../generated/rules-schema.js';
import type { LanguageSettings } from './languages.js';

export interface TimeSettings {
  /** An IANA time zone name (default UTC). */
  readonly zone: string;
  /** `hours:` by name. */
  readonly hours: ReadonlyMap<string, OpeningHours>;
  readonly languages?: LanguageSettings;
}

/** Rules that say nothing about time: UTC, no opening hours. */
export const UTC_TIME: TimeSettings = Object.freeze({ zone: 'UTC', hours: new Map<string, OpeningHours>() });

/** The time settings templates see: the declared ones (or UTC) with the rules' languages. */
export function timeSettingsWith(time: TimeSettings | undefined, languages: LanguageSettings | undefined): TimeSettings {
  const base = time ?? UTC_TIME;
  return languages ? { zone: base.zone, hours: base.hours, languages } : base;
}

/** A compiled `open:` condition: the rule applies while `hours` is open (`open` true) or closed (false). */
export interface CompiledOpen {
  readonly hours: OpeningHours;
  readonly open: boolean;
}

/** Compiles `open: NAME` / `open: { not: NAME }`; null when absent, undefined when it names no declared hours (reported). */
export function compileOpen(
  spec: OpenCondition | undefined,
  time: TimeSettings,
  where: string,
  report: (message: string) => void,
): CompiledOpen | null | undefined {
  if (spec === undefined) return null;
  const name = typeof spec === 'string' ? spec : spec.not;
  const hours = time.hours.get(name);
  if (hours) return Object.freeze({ hours, open: typeof spec === 'string' });
  const known = [...time.hours.keys()];
  const guess = nearest(name, known);
  const listed = known.length > 0 ? `declared: ${known.join(', ')}` : 'declare them under hours: in any rule file';
  report(`open: ${where} names opening hours '${name}' that are not declared (${guess ? `did you mean '${guess}'? ` : ''}${listed})`);
  return undefined;
}

/** Whether an `open:` condition holds at `now` (true when there is none). */
export function openHolds(open: CompiledOpen | null | undefined, now: number): boolean {
  return !open || isOpenAt(open.hours, now) === open.open;
}
