// What rule files declare once for the whole rule set (`languages`, `synonyms`, `fuzzy`): read from
// whichever file has it; a second declaration is an error naming the first.
import type { RuleSetSettings } from '../engine/compile.js';
import { DEFAULT_LANGUAGE_VARIABLE } from '../engine/languages.js';
import { RuleProblem } from '../diagnostics/problem.js';
import type { ParsedYaml } from '../yaml/source.js';

export interface DeclaredSettings {
  parsed: ParsedYaml;
  /** The file's data, already valid against the schema. */
  data: unknown;
}

const KEYS = ['languages', 'synonyms', 'fuzzy'] as const;

/** The settings of the rule files (schema-valid ones); a setting declared in two places adds an error. */
export function ruleSetSettings(files: readonly DeclaredSettings[], problems: RuleProblem[]): RuleSetSettings {
  const found: Record<string, unknown> = {};
  const where = new Map<string, string>();
  for (const { parsed, data } of files) {
    if (data === null || typeof data !== 'object') continue;
    for (const key of KEYS) {
      const value = (data as Record<string, unknown>)[key];
      if (value === undefined) continue;
      const here = parsed.locate([key], true);
      const first = where.get(key);
      if (first !== undefined) {
        problems.push(new RuleProblem(here.file, here.line, here.column, `${key} is declared twice: already at ${first}; declare it once, in one file`));
        continue;
      }
      where.set(key, `${here.file}:${here.line}:${here.column}`);
      found[key] = value;
    }
  }
  const languages = found.languages as { default: string; supported: string[]; variable?: string } | undefined;
  if (languages && !languages.supported.includes(languages.default)) {
    const at = where.get('languages')!;
    const [file, line, column] = splitPosition(at);
    problems.push(
      new RuleProblem(
        file,
        line,
        column,
        `languages: the default '${languages.default}' must be one of the supported languages (${languages.supported.join(', ')})`,
      ),
    );
  }
  return {
    ...(languages
      ? { languages: { default: languages.default, supported: languages.supported, variable: languages.variable ?? DEFAULT_LANGUAGE_VARIABLE } }
      : {}),
    ...(found.synonyms ? { synonyms: found.synonyms as string[][] } : {}),
    ...(found.fuzzy ? { fuzzy: found.fuzzy as 'auto' | 'off' } : {}),
  };
}

function splitPosition(at: string): [string, number, number] {
  const match = /^(.*):(\d+):(\d+)$/.exec(at)!;
  return [match[1]!, Number(match[2]), Number(match[3])];
}
