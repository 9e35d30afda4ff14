// Validates parsed rule-file data against schemas/rules.schema.json and turns ajv's errors into
// messages that say what to do, placed at the offending node.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { rulesSchema } from '../generated/rules-schema.js';
import { validate as validateRuleFile } from '../generated/rules-validator.js';
import { RuleProblem, problemAt } from '../diagnostics/problem.js';
import { nearest } from '../diagnostics/suggest.js';
import { flowOrVariableProblem, isVariablePath, VARIABLE_ERRORS } from './schema-problems-flows.js';
import { isObject, pointerToPath, valueAt } from './schema-paths.js';
import type { NodePath, ParsedYaml } from '../yaml/source.js';
import { describeValue as describe, localizedTextProblem } from './text-problems.js';
import { isSettingsKey, settingsProblems } from './settings-problems.js';
import { asListHint, asTextHint } from './type-hints.js';
import { consequentialErrors } from './typo-consequences.js';

export const TRIGGER_KEYS = ['command', 'text', 'pattern', 'keywords', 'all', 'fallback', 'callback', 'event', 'media'] as const;
const RULE_KEYS = Object.keys(rulesSchema.$defs.rule.properties);
const CHAT_TYPES = rulesSchema.$defs.rule.properties.chat_types.items.enum as readonly string[];
const PARSE_MODES = rulesSchema.$defs.rule.properties.parse_mode.enum as readonly string[];
const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five'];

/** The schema's errors for one file's data: the validator is generated at build time (no compile at start, no cache). */
function validate(data: unknown): ErrorObject[] {
  return validateRuleFile(data) ? [] : [...(validateRuleFile.errors ?? [])];
}

export interface SchemaCheck {
  problems: RuleProblem[];
  /** Indexes of rules that passed the schema, so later checks (regex, templates) still see them. */
  validRules: number[];
  /** Indexes of flows that passed the schema. */
  validFlows: number[];
}

/** All schema problems of one parsed file, de-duplicated, in source order. */
export function schemaProblems(parsed: ParsedYaml): SchemaCheck {
  const data = parsed.data;
  if (data === null || data === undefined) {
    return {
      problems: [
        problemAt(
          parsed.locate([]),
          'the file is empty: write `rules:` followed by a list of rules (an empty file is refused so that a half-written save never wipes the bot)',
        ),
      ],
      validRules: [],
      validFlows: [],
    };
  }
  const problems: RuleProblem[] = [];
  const badRules = new Set<number>();
  const badFlows = new Set<number>();
  let fileLevel = false;
  const errors = validate(data);
  // A misspelt key explains the missing key or trigger of the same node: that error is not a second problem.
  const consequences = consequentialErrors(errors);
  const settingsErrors: ErrorObject[] = [];
  for (const error of errors) {
    const path = pointerToPath(error.instancePath);
    // A settings block is one mistake, reported once below; it keeps none of the file's rules from being checked.
    if (isSettingsKey(path[0])) {
      settingsErrors.push(error);
      continue;
    }
    if (path[0] === 'rules' && typeof path[1] === 'number') badRules.add(path[1]);
    else if (path[0] === 'flows' && typeof path[1] === 'number') badFlows.add(path[1]);
    else fileLevel = true;
    const problem = consequences.has(error) ? undefined : translate(error, data, parsed);
    if (problem) problems.push(problem);
  }
  problems.push(...settingsProblems(settingsErrors, data, parsed));
  const valid = (key: string, bad: Set<number>) =>
    fileLevel || !isObject(data) || !Array.isArray(data[key]) ? [] : (data[key] as unknown[]).map((_, i) => i).filter((i) => !bad.has(i));
  return { problems: dedupe(problems), validRules: valid('rules', badRules), validFlows: valid('flows', badFlows) };
}

function dedupe(problems: RuleProblem[]): RuleProblem[] {
  const seen = new Set<string>();
  return problems
    .filter((p) => {
      const key = p.format();
      return seen.has(key) ? false : (seen.add(key), true);
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);
}

function translate(error: ErrorObject, data: unknown, parsed: ParsedYaml): RuleProblem | undefined {
  // Branch errors of the trigger oneOf and the reply anyOf are summarised by their parent error.
  if (/\/oneOf\/\d+\//.test(error.schemaPath) || /\/anyOf\/\d+\//.test(error.schemaPath)) return undefined;
  // A key refused by propertyNames is reported once, by the propertyNames error itself.
  if (error.propertyName !== undefined) return undefined;
  // "must match then/else": the then/else branch's own error says what is missing.
  if (error.keyword === 'if') return undefined;
  const path = pointerToPath(error.instancePath);
  if (path[0] === 'flows' || VARIABLE_ERRORS.has(error.keyword) || isVariablePath(path)) {
    const problem = flowOrVariableProblem(error, data, parsed);
    if (problem !== null) return problem;
  }
  const ruleIndex = path[0] === 'rules' && typeof path[1] === 'number' ? path[1] : undefined;
  const site: RuleErrorSite = {
    error,
    data,
    parsed,
    path,
    ruleIndex,
    name: ruleIndex === undefined ? '' : ruleName(valueAt(data, ['rules', ruleIndex]), ruleIndex),
    field: ruleIndex !== undefined && typeof path[2] === 'string' ? path[2] : undefined,
    value: valueAt(data, path),
    here: (message) => problemAt(parsed.locate(path), message),
  };
  return (RULE_MESSAGES.get(error.keyword) ?? otherProblem)(site);
}

/** One schema error outside flows and variables, with what its message needs: the rule's name, the field, the value. */
interface RuleErrorSite {
  error: ErrorObject;
  data: unknown;
  parsed: ParsedYaml;
  path: NodePath;
  /** The rule the error is in; undefined for an error at the file's top level. */
  ruleIndex: number | undefined;
  /** "rule 'greet'" or "rule #3"; empty at the top level. */
  name: string;
  /** The rule's key the error is under (`reply`, `keyboard` …). */
  field: string | undefined;
  value: unknown;
  /** A problem placed at the error's node. */
  here: (message: string) => RuleProblem;
}

/** A message for one kind of schema error; undefined when another error of the same node says it better. */
type RuleMessage = (site: RuleErrorSite) => RuleProblem | undefined;

function unknownKeyProblem({ error, parsed, path, ruleIndex, name }: RuleErrorSite): RuleProblem {
  const extra = String((error.params as { additionalProperty: string }).additionalProperty);
  const at = parsed.locate([...path, extra], true);
  if (ruleIndex === undefined) {
    const top = ['rules', 'flows', 'languages', 'synonyms', 'fuzzy', 'forms', 'suggest', 'handoff_end', 'limits'];
    const hint = nearest(extra, top) ? `; did you mean '${nearest(extra, top)}'?` : `; a rule file has only ${top.map((key) => `\`${key}:\``).join(', ')}`;
    return problemAt(at, `unknown top-level key '${extra}'${hint}`);
  }
  const suggestion = nearest(extra, RULE_KEYS);
  const hint = suggestion ? `; did you mean '${suggestion}'?` : `; known keys: ${RULE_KEYS.join(', ')}`;
  return problemAt(at, `unknown key '${extra}' in ${name}${hint}`);
}

function missingKeyProblem({ error, ruleIndex, name, value, here }: RuleErrorSite): RuleProblem | undefined {
  const missing = String((error.params as { missingProperty: string }).missingProperty);
  if (ruleIndex === undefined) return here('a rule file needs `rules:` followed by a list of rules');
  // An unknown key that is a typo of 'reply' already says what to do.
  if (missing === 'reply' && hasTypoOfReply(value)) return undefined;
  if (missing === 'reply') return here(`${name} has no reply: add \`reply:\` with the text to send (or \`reply: none\` to answer nothing)`);
  if (missing === 'id') return here(`${name} has no id: add \`id:\` with a name unique across all rule files`);
  return here(`${name} needs '${missing}'`);
}

/** Whether a rule has an unknown key that is a typo of 'reply' (its own message then says what to do). */
function hasTypoOfReply(value: unknown): boolean {
  return isObject(value) && Object.keys(value).some((k) => k !== 'reply' && !RULE_KEYS.includes(k) && nearest(k, RULE_KEYS) === 'reply');
}

function triggerCountProblem({ parsed, path, name, value, here }: RuleErrorSite): RuleProblem | undefined {
  if (!isObject(value)) return undefined; // the type error says it better
  // `all` next to `keywords` is one trigger: the rule answers either. Beside `event` or `media`, keywords and
  // pattern filter the caption: no trigger of their own.
  const captioned = 'event' in value || 'media' in value;
  const present = TRIGGER_KEYS.filter((k) => k in value && !(k === 'all' && 'keywords' in value) && !(captioned && (k === 'keywords' || k === 'pattern')));
  const typoOfTrigger = Object.keys(value).some((k) => !RULE_KEYS.includes(k) && (TRIGGER_KEYS as readonly string[]).includes(nearest(k, RULE_KEYS) ?? ''));
  if (present.length === 0 && typoOfTrigger) return undefined; // the unknown-key message names the trigger
  if (present.length === 0) {
    return here(`${name} has no trigger: add one of ${TRIGGER_KEYS.join(', ')}`);
  }
  const count = COUNT_WORDS[present.length] ?? String(present.length);
  return problemAt(parsed.locate([...path, present[1]!], true), `${name} has ${count} triggers (${present.join(', ')}): keep one`);
}

function alternativesProblem({ error, parsed, path, name, field, value, here }: RuleErrorSite): RuleProblem | undefined {
  if (path.length === 0) return here('a rule file needs `rules:` followed by a list of rules');
  if (error.schemaPath.endsWith('/then/anyOf')) return here(`${name} does nothing with a press: add \`answer\`, \`edit\` or \`reply\``);
  if (field === 'keyboard') {
    // A label's own error says what is wrong with it; rows of rows are the right shape.
    if (path.length > 3) return here(localizedTextProblem(value, displayField(path), name));
    if (Array.isArray(value) && value.every(Array.isArray)) return undefined;
    return here(`the keyboard of ${name} must be rows of button texts, e.g. [["Yes", "No"]], or \`remove\``);
  }
  if (field === 'keywords' && path.length === 3) return here(keywordsProblem(value, name));
  // A text other than the reply (a button's, a press's answer or edit), which may be given per language.
  if (path.findLast((s) => typeof s === 'string') !== 'reply' && path.length > 2) return here(localizedTextProblem(value, displayField(path), name));
  // The rule itself: neither reply nor messages (an unknown key that is a typo of 'reply' already says what to do).
  if (path.length === 2) {
    if (hasTypoOfReply(value)) return undefined;
    return here(`${name} has no reply: add \`reply:\` with the text to send (or \`reply: none\` to answer nothing)`);
  }
  return replyProblem(value, path, name, parsed);
}

function typeProblem({ error, path, ruleIndex, name, value, here }: RuleErrorSite): RuleProblem {
  const expected = String((error.params as { type: string }).type);
  if (path.length === 0) return here('a rule file is a mapping with `rules:` followed by a list of rules');
  if (path.length === 1) return here('`rules` must be a list of rules (each starting with `- id: ...`)');
  if (path.length === 2) return here(`rule #${ruleIndex! + 1} must be a mapping with id, a trigger and reply, not ${describe(value)}`);
  return here(wrongType(`'${displayField(path)}' in ${name}`, expected, value));
}

/** "must be a list: write [thanks]": what was given, what is wanted and how to write it, when that is clear. */
function wrongType(subject: string, expected: string, value: unknown): string {
  if (expected === 'array' && (typeof value === 'string' || typeof value === 'number')) return `${subject} must be a list: write ${asListHint(value)}`;
  const asText = expected === 'string' ? asTextHint(value) : undefined;
  if (asText !== undefined) return `${subject} must be a text: write ${asText}`;
  return `${subject} must be ${article(expected)}, not ${describe(value)}`;
}

function keywordsProblem(value: unknown, name: string): string {
  if (typeof value === 'string' || typeof value === 'number') return wrongType(`'keywords' in ${name}`, 'array', value);
  if (Array.isArray(value)) {
    const bad = value.find((v) => typeof v !== 'string' || v === '');
    return `'keywords' in ${name} must list words or phrases as texts, not ${describe(bad)}${bad === '' ? '' : ' (quote it)'}`;
  }
  const [language, words] = isObject(value) ? (Object.entries(value).find(([, v]) => !Array.isArray(v)) ?? []) : [];
  if (language !== undefined) return wrongType(`'keywords.${language}' in ${name}`, 'array', words);
  return `'keywords' in ${name} must be a list like [refund, "money back"], or lists per language like { en: [refund], de: [erstattung] }, not ${describe(value)}`;
}

function patternProblem({ error, path, name, field, value, here }: RuleErrorSite): RuleProblem {
  if (field === 'command' && typeof value === 'string') {
    const bare = value.replace(/^\/+/, '').split('@')[0]!.trim();
    if (value.startsWith('/')) return here(`write the command without the slash: '${bare}'`);
    return here(`command '${value}' in ${name} is not a command name: use 1 to 32 letters, digits or underscores`);
  }
  if (field === 'id') return here(`rule id '${String(value)}' may use only letters, digits, '_', '-' and '.' (at most 64, starting with a letter or digit)`);
  return here(`'${displayField(path)}' in ${name} ${error.message ?? 'is invalid'}`);
}

function enumProblem({ name, field, value, here }: RuleErrorSite): RuleProblem {
  const allowed = field === 'parse_mode' ? PARSE_MODES : CHAT_TYPES;
  const suggestion = typeof value === 'string' ? nearest(value, allowed) : undefined;
  const what = field === 'parse_mode' ? 'parse mode' : 'chat type';
  return here(`'${String(value)}' in ${name} is not a ${what}${suggestion ? `; did you mean '${suggestion}'?` : ''} (use one of ${allowed.join(', ')})`);
}

function emptyProblem({ path, name, here }: RuleErrorSite): RuleProblem {
  return here(`'${displayField(path)}' in ${name} must not be empty`);
}

function repeatedItemProblem({ error, data, parsed, path, name }: RuleErrorSite): RuleProblem {
  const { i, j } = error.params as { i: number; j: number };
  return problemAt(parsed.locate([...path, Math.max(i, j)]), `'${displayField(path)}' in ${name} lists ${JSON.stringify(valueAt(data, [...path, i]))} twice`);
}

function otherProblem({ error, path, name, here }: RuleErrorSite): RuleProblem {
  return here(`${name ? `${name}: ` : ''}'${displayField(path)}' ${error.message ?? 'is invalid'}`);
}

/** The message for each kind of schema error in a rule or at the top level; any other kind gets otherProblem's. */
const RULE_MESSAGES: ReadonlyMap<string, RuleMessage> = new Map<string, RuleMessage>([
  ['additionalProperties', unknownKeyProblem],
  ['required', missingKeyProblem],
  ['oneOf', triggerCountProblem],
  ['anyOf', alternativesProblem],
  ['type', typeProblem],
  ['pattern', patternProblem],
  ['enum', enumProblem],
  ['const', ({ name, here }) => here(`fallback in ${name} must be \`true\`; to turn the fallback off, remove the rule`)],
  ['minItems', emptyProblem],
  ['minLength', emptyProblem],
  ['uniqueItems', repeatedItemProblem],
]);

function replyProblem(value: unknown, path: NodePath, name: string, parsed: ParsedYaml): RuleProblem {
  if (Array.isArray(value)) {
    if (value.length === 0) return problemAt(parsed.locate(path), `the reply list of ${name} is empty: add at least one text`);
    const bad = value.findIndex((v) => typeof v !== 'string' || v.length === 0);
    if (bad >= 0) {
      const item = value[bad];
      const why = typeof item === 'string' ? 'is empty' : `must be text, not ${describe(item)} (quote it)`;
      return problemAt(parsed.locate([...path, bad]), `reply alternative #${bad + 1} of ${name} ${why}`);
    }
  }
  if (value === '') return problemAt(parsed.locate(path), `the reply of ${name} is empty`);
  return problemAt(parsed.locate(path), `the reply of ${name} must be a text or a list of texts, not ${describe(value)} (quote it)`);
}

export function ruleName(rule: unknown, index: number): string {
  const id = isObject(rule) ? rule['id'] : undefined;
  return typeof id === 'string' && id.length > 0 ? `rule '${id}'` : `rule #${index + 1}`;
}

function displayField(path: NodePath): string {
  // Inside a rule or flow the field is named from there; a top-level setting (`suggest.max`) by its whole path.
  const rest = path[0] === 'rules' || path[0] === 'flows' ? path.slice(2) : path;
  return rest.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('') || 'rule';
}

function article(type: string): string {
  const words: Record<string, string> = {
    string: 'a text',
    array: 'a list',
    integer: 'an integer',
    boolean: 'true or false',
    object: 'a mapping',
    number: 'a number',
  };
  return words[type] ?? type;
}
