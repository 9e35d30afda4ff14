// What rule files declare once for the whole rule set (`languages`, `synonyms`, `fuzzy`, `forms`, `suggest`,
// `handoff_end`, `timezone`, `hours`): read from every
// file that parses, even one whose rules have schema errors, so a typo elsewhere in that file cannot make the
// setting look undeclared to every other file. A block that is itself broken has its one problem reported by
// the schema check; here it only counts as declared, so nothing else is judged against it. A second
// declaration is an error naming the first. The time zone and the opening hours are compiled here, each
// problem at its place in the file that declared it.
import type { RuleSetSettings } from '../engine/compile.js';
import { compileStaticText, compileText, DEFAULT_LANGUAGE_VARIABLE, type LanguageSettings, type StaticText, type TextSource } from '../engine/languages.js';
import type { SuggestSettings } from '../engine/suggestions.js';
import type { Template, TemplateContext } from '../engine/template.js';
import { RuleProblem } from '../diagnostics/problem.js';
import { durationMs } from '../engine/compile-flows.js';
import { validate as validateRuleFile } from '../generated/rules-validator.js';
import type { ParsedYaml } from '../yaml/source.js';
import type { Schedule } from '../generated/rules-schema.js';
import { SETTINGS_KEYS } from './settings-problems.js';
import { compileOpeningHours, type HoursSpec, type OpeningHours } from '../calendar/opening-hours.js';
import { isTimeZone } from '../calendar/zone.js';

/** Every setting declared once: those with blocks of their own schema wording, and the clock's. */
const DECLARED_ONCE = [...SETTINGS_KEYS, 'timezone', 'hours', 'schedules'] as const;
type DeclaredKey = (typeof DECLARED_ONCE)[number];

export interface DeclaredSettings {
  parsed: ParsedYaml;
  /** The file's data (what the parser read). */
  data: unknown;
  /** The whole file passed the schema, so its blocks need no check of their own. */
  valid: boolean;
}

/** Whether a settings block is valid on its own (a file holding only it passes the schema). */
function blockIsValid(key: DeclaredKey, value: unknown): boolean {
  return validateRuleFile({ [key]: value }) === true;
}

/** The settings of the rule files; a setting declared in two places, or a default language that is not supported, adds an error. */
export function ruleSetSettings(files: readonly DeclaredSettings[], problems: RuleProblem[]): RuleSetSettings {
  const found: Partial<Record<DeclaredKey, unknown>> = {};
  const broken = new Set<DeclaredKey>();
  const where = new Map<string, string>();
  const declaredIn = new Map<string, ParsedYaml>();
  for (const { parsed, data, valid } of files) {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) continue;
    for (const key of DECLARED_ONCE) {
      const value = (data as Record<string, unknown>)[key];
      if (value === undefined) continue;
      const usable = valid || blockIsValid(key, value);
      const first = where.get(key);
      // A broken second declaration has its own problem already: one mistake is not told twice.
      if (first !== undefined && !usable) continue;
      const here = parsed.locate([key], true);
      if (first !== undefined) {
        problems.push(new RuleProblem(here.file, here.line, here.column, `${key} is declared twice: already at ${first}; declare it once, in one file`));
        continue;
      }
      where.set(key, `${here.file}:${here.line}:${here.column}`);
      declaredIn.set(key, parsed);
      if (usable) found[key] = value;
      else broken.add(key);
    }
  }
  const languages = languagesOf(found.languages, broken.has('languages'), where, problems);
  const handoffEnd =
    found.handoff_end === undefined ? undefined : compileHandoffEnd(found.handoff_end, languages.languages, where.get('handoff_end')!, problems);
  return {
    ...languages,
    ...(handoffEnd ? { handoffEnd } : {}),
    ...(found.synonyms ? { synonyms: found.synonyms as string[][] } : {}),
    ...(found.fuzzy ? { fuzzy: found.fuzzy as 'auto' | 'off' } : {}),
    ...(found.forms ? { forms: found.forms as 'auto' | 'off' } : {}),
    ...(found.suggest ? { suggest: suggestSettings(found.suggest as SuggestBlock, where.get('suggest')!, languages.languages, problems) } : {}),
    ...(found.limits ? incomingLimitOf(found.limits as LimitsBlock, where.get('limits')!, problems) : {}),
    ...timeOf(found, broken, declaredIn, problems),
    ...(found.schedules
      ? { schedules: { list: found.schedules as Schedule[], locate: (path) => declaredIn.get('schedules')!.locate(['schedules', ...path]) } }
      : {}),
  };
}

/** The `limits:` block as the schema lets it be written. */
interface LimitsBlock {
  incoming: { per_user: number; per: string };
}

/** `limits.incoming` in seconds; a window of no length is an error (nothing could ever be answered). */
function incomingLimitOf(block: LimitsBlock, at: string, problems: RuleProblem[]): Pick<RuleSetSettings, 'incomingLimit'> {
  const perSeconds = durationMs(block.incoming.per) / 1000;
  if (perSeconds === 0) {
    const [file, line, column] = splitPosition(at);
    problems.push(new RuleProblem(file, line, column, `limits.incoming.per: '${block.incoming.per}' is no time at all; write a window such as 10s, 1m or 1h`));
    return {};
  }
  return { incomingLimit: { perUser: block.incoming.per_user, perSeconds } };
}

/**
 * `timezone:` and `hours:` compiled (UTC and no hours when absent); each problem at its place. Hours with
 * mistakes (or a broken block) stay known by name, never open, so that `open:` and {{hours.*}} naming them add
 * no second, misleading error; the rules are refused for the first one anyway.
 */
function timeOf(
  found: Partial<Record<DeclaredKey, unknown>>,
  broken: ReadonlySet<DeclaredKey>,
  declaredIn: ReadonlyMap<string, ParsedYaml>,
  problems: RuleProblem[],
): Pick<RuleSetSettings, 'time'> {
  const zoneName = found.timezone as string | undefined;
  const hoursSpec = found.hours as Readonly<Record<string, HoursSpec>> | undefined;
  if (zoneName === undefined && hoursSpec === undefined && !broken.has('hours')) return {};
  const at = (key: string, path: (string | number)[], message: string) => {
    const here = declaredIn.get(key)!.locate([key, ...path]);
    problems.push(new RuleProblem(here.file, here.line, here.column, message));
  };
  let zone = 'UTC';
  if (zoneName !== undefined) {
    if (isTimeZone(zoneName)) zone = zoneName;
    else at('timezone', [], `timezone: '${zoneName}' is not a time zone: write an IANA name such as Europe/Berlin, America/New_York or UTC`);
  }
  const hours = new Map<string, OpeningHours>();
  for (const [name, spec] of Object.entries(hoursSpec ?? {})) {
    const compiled = compileOpeningHours(name, spec, zone, (path, message) => at('hours', [name, ...path], message));
    hours.set(name, compiled ?? neverOpen(name, zone));
  }
  if (broken.has('hours')) for (const name of declaredHoursNames(declaredIn.get('hours'))) hours.set(name, neverOpen(name, zone));
  return { time: { zone, hours } };
}

/** The names under a broken `hours:` block, as far as they can be read. */
function declaredHoursNames(parsed: ParsedYaml | undefined): string[] {
  const block = (parsed?.data as { hours?: unknown } | undefined)?.hours;
  return block !== null && typeof block === 'object' && !Array.isArray(block) ? Object.keys(block) : [];
}

function neverOpen(name: string, zone: string): OpeningHours {
  return { name, zone, week: [[], [], [], [], [], [], []], closed: new Set() };
}

/** The languages setting: unchecked when its block is broken or names a default it does not support (one problem either way). */
function languagesOf(value: unknown, broken: boolean, where: ReadonlyMap<string, string>, problems: RuleProblem[]): Pick<RuleSetSettings, 'languages'> {
  const unchecked = { default: '', supported: [], variable: DEFAULT_LANGUAGE_VARIABLE, unchecked: true } as const;
  if (broken) return { languages: unchecked };
  const languages = value as { default: string; supported: string[]; variable?: string } | undefined;
  if (!languages) return {};
  if (!languages.supported.includes(languages.default)) {
    const [file, line, column] = splitPosition(where.get('languages')!);
    problems.push(
      new RuleProblem(
        file,
        line,
        column,
        `languages: the default '${languages.default}' must be one of the supported languages (${languages.supported.join(', ')})`,
      ),
    );
    return { languages: unchecked };
  }
  return { languages: { default: languages.default, supported: languages.supported, variable: languages.variable ?? DEFAULT_LANGUAGE_VARIABLE } };
}

/** `handoff_end`'s reply as a template (in the declared languages), its problems at the declaration. */
function compileHandoffEnd(value: unknown, languages: LanguageSettings | undefined, at: string, problems: RuleProblem[]): Template | undefined {
  const [file, line, column] = splitPosition(at);
  const report = (message: string) => problems.push(new RuleProblem(file, line, column, `handoff_end: ${message}`));
  const context: TemplateContext = { trigger: 'fallback', ...(languages ? { languages } : {}) };
  const reply = (value as { reply: TextSource }).reply;
  return compileText(reply, context, 'the handoff_end reply', { error: (_path, message) => report(message), warning: (_path, message) => report(message) });
}

function splitPosition(at: string): [string, number, number] {
  const match = /^(.*):(\d+):(\d+)$/.exec(at)!;
  return [match[1]!, Number(match[2]), Number(match[3])];
}

/** The `suggest:` block as the schema lets it be written. */
interface SuggestBlock {
  when_unmatched?: boolean;
  when_contested?: boolean;
  max?: number;
  text?: TextSource;
  none?: 'fallback';
  none_label?: TextSource;
}

/** The `suggest:` block compiled: its texts checked as texts per language are (at the block's position). */
function suggestSettings(block: SuggestBlock, at: string, languages: LanguageSettings | undefined, problems: RuleProblem[]): SuggestSettings {
  const [file, line, column] = splitPosition(at);
  const text = (source: TextSource | undefined, what: string): StaticText | null => {
    if (source === undefined) return null;
    const report = (severity: 'error' | 'warning') => (_path: (string | number)[], message: string) =>
      problems.push(new RuleProblem(file, line, column, message, severity));
    return compileStaticText(source, languages, what, { error: report('error'), warning: report('warning') }) ?? null;
  };
  return {
    whenUnmatched: block.when_unmatched ?? true,
    whenContested: block.when_contested ?? false,
    max: block.max ?? 3,
    text: text(block.text, 'suggest.text'),
    none: block.none === 'fallback',
    noneLabel: text(block.none_label, 'suggest.none_label'),
  };
}
