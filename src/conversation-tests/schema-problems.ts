// Validates a parsed test file against schemas/tests.schema.json and turns ajv's errors into messages that
// say what to change, placed at the offending node (file:line:column), as the rule loader does for rules.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { problemAt, type RuleProblem } from '../diagnostics/problem.js';
import { nearest } from '../diagnostics/suggest.js';
import { validate as validateTestFile } from '../generated/tests-validator.js';
import { pointerToPath } from '../rules/schema-paths.js';
import type { NodePath, ParsedYaml } from '../yaml/source.js';

const STEP_ACTIONS = ['say', 'send', 'press', 'wait', 'join', 'leave', 'request_join'] as const;

/** The schema's errors for one file's data (the validator is generated at build time). */
function validate(data: unknown): ErrorObject[] {
  return validateTestFile(data) ? [] : [...(validateTestFile.errors ?? [])];
}

/** Every schema problem of one parsed test file, one per node, in source order. */
export function testSchemaProblems(parsed: ParsedYaml): RuleProblem[] {
  const data = parsed.data;
  if (data === null || data === undefined) return [problemAt(parsed.locate([]), 'the file is empty: write `tests:` followed by a list of tests')];
  const problems = new Map<string, RuleProblem>();
  const errors = validate(data);
  // An unknown key says most (a misspelt `sya:` also makes the step do nothing): report it first.
  const ordered = [...errors].sort((a, b) => Number(b.keyword === 'additionalProperties') - Number(a.keyword === 'additionalProperties'));
  for (const error of ordered) {
    const translated = translate(error, errors, parsed);
    if (!translated) continue;
    const key = `${translated.line}:${translated.column}`;
    // The first (most specific) message for a node wins; the rest usually follow from it.
    if (!problems.has(key)) problems.set(key, translated);
  }
  return [...problems.values()].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** "test 'name', step 3" for a path inside a test file, so a message says where without reading the position. */
export function describePath(data: unknown, path: NodePath): string {
  if (path[0] !== 'tests' || typeof path[1] !== 'number') return 'the file';
  const name = (valueAt(data, ['tests', path[1], 'name']) as unknown) ?? `#${path[1] + 1}`;
  const test = `test '${String(name)}'`;
  if (path[2] === 'steps' && typeof path[3] === 'number') return `${test}, step ${path[3] + 1}`;
  return test;
}

function translate(error: ErrorObject, all: readonly ErrorObject[], parsed: ParsedYaml): RuleProblem | undefined {
  const path = pointerToPath(error.instancePath);
  const where = describePath(parsed.data, path);
  // Branch errors of oneOf/anyOf are summarised by their parent's error.
  if (/\/(oneOf|anyOf)\/\d+\//.test(error.schemaPath)) return undefined;
  if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
    // A mapping that fits no form because of a misspelt key: name the key (`contians`), not the forms.
    const unknownKey = all.find((e) => e.keyword === 'additionalProperties' && e.instancePath === error.instancePath);
    if (unknownKey) return translate({ ...unknownKey, schemaPath: '#' }, all, parsed);
  }
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      const guess = nearest(key, known);
      return problemAt(
        parsed.locate([...path, key], true),
        `unknown key '${key}' in ${where}${guess ? `; did you mean '${guess}'?` : `; known keys: ${known.join(', ')}`}`,
      );
    }
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      return problemAt(parsed.locate(path), `${where} needs \`${missing}\``);
    }
    case 'oneOf':
    case 'anyOf':
    case 'not':
      return problemAt(parsed.locate(path), branchMessage(error, all, parsed.data, path, where));
    case 'propertyNames':
      return undefined;
    case 'pattern':
      return problemAt(parsed.locate(path), patternMessage(path, error, where));
    case 'enum':
      return problemAt(
        parsed.locate(path),
        `${lastKey(path)} in ${where} must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`,
      );
    case 'type':
    case 'minimum':
    case 'maximum':
      if (lastKey(path) === 'times')
        return problemAt(parsed.locate(path), `times in ${where} must be a whole number from 1 to 1000 (got ${JSON.stringify(valueAt(parsed.data, path))})`);
      if (error.keyword !== 'type') break;
      return problemAt(parsed.locate(path), `${lastKey(path)} in ${where} must be ${String((error.params as { type: unknown }).type).replace(',', ' or ')}`);
  }
  return problemAt(parsed.locate(path), `${lastKey(path)} in ${where} ${error.message ?? 'is not valid'}`);
}

const titleOf = (error: ErrorObject) => (error.parentSchema as { title?: string } | undefined)?.title;

function branchMessage(error: ErrorObject, all: readonly ErrorObject[], data: unknown, path: NodePath, where: string): string {
  if (titleOf(error) === 'TestStep') {
    const step = valueAt(data, path);
    const given = isObject(step) ? STEP_ACTIONS.filter((a) => a in step) : [];
    if (given.length > 1) return `${where} has ${given.join(' and ')}: one step does one thing; split it into ${given.length} steps`;
    if (given.length === 0) return `${where} does nothing: give it one of ${STEP_ACTIONS.join(', ')} (or only \`state:\`)`;
  }
  if (titleOf(error) === 'ConversationTest' && error.keyword === 'not') {
    return `${where} has both a single and a named form (user and users, or chat and chats): keep one`;
  }
  if (lastKey(path) === 'press') return `press in ${where}: a button by its text (press: Yes) or by its data (press: { data: yes }), one of them`;
  // A more specific error below this node says it better.
  const deeper = all.find((e) => e !== error && e.instancePath.startsWith(`${error.instancePath}/`) && !/\/(oneOf|anyOf)\/\d+\//.test(e.schemaPath));
  if (deeper) return `${lastKey(path)} in ${where} is not valid: ${deeper.message ?? ''}`.trim();
  return `${lastKey(path)} in ${where} is not valid here (got ${JSON.stringify(valueAt(data, path))}); see docs/testing.md`;
}

function patternMessage(path: NodePath, error: ErrorObject, where: string): string {
  const key = lastKey(path);
  if (key === 'wait') return `wait in ${where} must be a number and a unit s, m, h or d (90s, 15m, 2h, 1d)`;
  if (key === 'username') return `username in ${where} must be 4 to 32 letters, digits or _ starting with a letter, without @`;
  if (key === 'language_code') return `language_code in ${where} must be a language tag such as en, de or pt-BR`;
  return `${key} in ${where} ${error.message ?? 'is not valid'}`;
}

function lastKey(path: NodePath): string {
  const last = [...path].reverse().find((s) => typeof s === 'string');
  return last === undefined ? 'the value' : String(last);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function valueAt(data: unknown, path: NodePath): unknown {
  let node = data;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}
