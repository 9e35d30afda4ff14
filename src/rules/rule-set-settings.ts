// What rule files declare once for the whole rule set (`languages`, `synonyms`, `fuzzy`, `forms`, `suggest`,
// `handoff_end`): read from every
// file that parses, even one whose rules have schema errors, so a typo elsewhere in that file cannot make the
// setting look undeclared to every other file. A block that is itself broken has its one problem reported by
// the schema check; here it only counts as declared, so nothing else is judged against it. A second
// declaration is an error naming the first.
import type { RuleSetSettings } from '../engine/compile.js';
import { compileStaticText, compileText, DEFAULT_LANGUAGE_VARIABLE, type LanguageSettings, type StaticText, type TextSource } from '../engine/languages.js';
import type { SuggestSettings } from '../engine/suggestions.js';
import type { Template, TemplateContext } from '../engine/template.js';
import { RuleProblem } from '../diagnostics/problem.js';
import { durationMs } from '../engine/compile-flows.js';
import { validate as validateRuleFile } from '../generated/rules-validator.js';
import type { ParsedYaml } from '../yaml/source.js';
import { SETTINGS_KEYS, type SettingsKey } from './settings-problems.js';

export interface DeclaredSettings {
  parsed: ParsedYaml;
  /** The file's data (what the parser read). */
  data: unknown;
  /** The whole file passed the schema, so its blocks need no check of their own. */
  valid: boolean;
}

/** Whether a settings block is valid on its own (a file holding only it passes the schema). */
function blockIsValid(key: SettingsKey, value: unknown): boolean {
  return validateRuleFile({ [key]: value }) === true;
}

/** The settings of the rule files; a setting declared in two places, or a default language that is not supported, adds an error. */
export function ruleSetSettings(files: readonly DeclaredSettings[], problems: RuleProblem[]): RuleSetSettings {
  const found: Partial<Record<SettingsKey, unknown>> = {};
  const broken = new Set<SettingsKey>();
  const where = new Map<string, string>();
  for (const { parsed, data, valid } of files) {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) continue;
    for (const key of SETTINGS_KEYS) {
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
    max: block.max ?? 3,
    text: text(block.text, 'suggest.text'),
    none: block.none === 'fallback',
    noneLabel: text(block.none_label, 'suggest.none_label'),
  };
}
