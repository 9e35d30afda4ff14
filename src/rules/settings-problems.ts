// Schema messages for the rule-set settings blocks (`languages:`, `synonyms:`, `fuzzy:`, `forms:`, `suggest:`): a broken block is
// one mistake, so it gets one problem, the most telling of its errors, worded for that block.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { problemAt, type RuleProblem } from '../diagnostics/problem.js';
import { nearest } from '../diagnostics/suggest.js';
import type { NodePath, ParsedYaml } from '../yaml/source.js';
import { pointerToPath, valueAt } from './schema-paths.js';
import { describeValue } from './text-problems.js';
import { asListHint } from './type-hints.js';

/** The top-level keys that declare a setting of the whole rule set (once, in any file). */
export const SETTINGS_KEYS = ['languages', 'synonyms', 'fuzzy', 'forms', 'suggest', 'handoff_end', 'limits'] as const;
export type SettingsKey = (typeof SETTINGS_KEYS)[number];

export function isSettingsKey(key: unknown): key is SettingsKey {
  return (SETTINGS_KEYS as readonly unknown[]).includes(key);
}

const LANGUAGE_KEYS = ['default', 'supported', 'variable'];
const EXAMPLE = {
  languages: 'languages: { default: en, supported: [en, de] }',
  synonyms: 'synonyms: [[shipping, delivery]]',
  fuzzy: 'fuzzy: auto',
  forms: 'forms: auto',
  suggest: 'suggest: { when_unmatched: true, max: 3 }',
  handoff_end: 'handoff_end: { reply: "You\'re back with the bot." }',
  limits: 'limits: { incoming: { per_user: 10, per: 1m } }',
};

/** Which errors say most: a misspelt key first (it explains the rest), then the deepest node, then source order. */
function rank(error: ErrorObject): number {
  if (error.keyword === 'additionalProperties') return 0;
  if (error.keyword === 'required' || error.keyword === 'anyOf' || error.keyword === 'oneOf') return 2;
  return 1;
}

/** One problem for each settings block that has schema errors; `errors` are all of the file's errors under these keys. */
export function settingsProblems(errors: readonly ErrorObject[], data: unknown, parsed: ParsedYaml): RuleProblem[] {
  const byBlock = new Map<SettingsKey, ErrorObject[]>();
  for (const error of errors) {
    const key = pointerToPath(error.instancePath)[0];
    if (!isSettingsKey(key)) continue;
    byBlock.set(key, [...(byBlock.get(key) ?? []), error]);
  }
  const problems: RuleProblem[] = [];
  for (const [key, blockErrors] of byBlock) {
    const best = [...blockErrors].sort((a, b) => rank(a) - rank(b) || pointerToPath(b.instancePath).length - pointerToPath(a.instancePath).length)[0]!;
    problems.push(blockProblem(key, best, data, parsed));
  }
  return problems;
}

function blockProblem(key: SettingsKey, error: ErrorObject, data: unknown, parsed: ParsedYaml): RuleProblem {
  const path = pointerToPath(error.instancePath);
  const value = valueAt(data, path);
  const here = (message: string, at: NodePath = path, onKey = false) => problemAt(parsed.locate(at, onKey), message);
  const field = fieldName(path);
  switch (error.keyword) {
    case 'additionalProperties': {
      const extra = String((error.params as { additionalProperty: string }).additionalProperty);
      const suggestion = nearest(extra, LANGUAGE_KEYS);
      const hint = suggestion ? `; did you mean '${suggestion}'?` : `; languages has only ${LANGUAGE_KEYS.map((k) => `\`${k}:\``).join(', ')}`;
      return here(`unknown key '${extra}' in languages${hint}`, [...path, extra], true);
    }
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      const what =
        missing === 'default'
          ? 'the language of users whose own is not supported, e.g. default: en'
          : 'the languages the bot answers in, e.g. supported: [en, de]';
      return here(`languages needs \`${missing}:\`, ${what}`, [key], true);
    }
    case 'type':
      return here(typeMessage(key, path, value, String((error.params as { type: string }).type)));
    case 'pattern':
      if (key === 'languages' && path[1] === 'variable')
        return here(`'variable' in languages must be a variable name (letters, digits and '_'), not ${describeValue(value)}`);
      if (key === 'languages') return here(`'${String(value)}' in languages is not a language code: use two or three lowercase letters, like en`);
      return here(`'${String(value)}' in ${field} has no letter or digit: a synonym is a word or a phrase`);
    case 'minItems':
      if (key === 'synonyms' && path.length === 2) return here(`${field} needs at least two words that mean the same, e.g. [shipping, delivery]`);
      return here(`${field} must not be empty: write ${EXAMPLE[key]}`);
    case 'minLength':
      return here(`${field} has an empty word`);
    case 'uniqueItems': {
      const { i, j } = error.params as { i: number; j: number };
      return here(`${field} lists ${JSON.stringify(valueAt(data, [...path, i]))} twice`, [...path, Math.max(i, j)]);
    }
    case 'enum':
      if (key === 'suggest') return here(`${field} must be fallback, not ${describeValue(value)}`);
      return here(`${key} must be auto or off, not ${describeValue(value)}`);
    case 'maximum':
    case 'minimum': {
      const limit = (error.params as { limit: number }).limit;
      return here(`${field} must be ${error.keyword === 'maximum' ? 'at most' : 'at least'} ${limit}, not ${describeValue(value)}`);
    }
    default:
      return here(`${field} ${error.message ?? 'is invalid'}: write ${EXAMPLE[key]}`);
  }
}

function typeMessage(key: SettingsKey, path: NodePath, value: unknown, expected: string): string {
  if (path.length === 1 && key === 'languages') return `languages must be a mapping like { default: en, supported: [en, de] }, not ${describeValue(value)}`;
  if (path.length === 1 && key === 'synonyms') return `synonyms must be a list of word groups like [[shipping, delivery]], not ${describeValue(value)}`;
  if (key === 'synonyms' && path.length === 2) {
    const words = typeof value === 'string' ? value.split(/[\s,]+/).filter((w) => w !== '') : [];
    const example = words.length >= 2 ? `[${words.join(', ')}]` : '[shipping, delivery]';
    return `${fieldName(path)} must be a list of words that mean the same: write ${example}`;
  }
  const field = `'${String(path.at(-1))}' in ${String(path[0])}`;
  if (expected === 'array') return `${field} must be a list: write ${asListHint(value)}`;
  return `${field} must be ${expected === 'string' ? 'a text' : expected}, not ${describeValue(value)}`;
}

/** `languages`, `synonyms[0]`, `synonyms[0][2]`: the part of a block a message names. */
function fieldName(path: NodePath): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}
