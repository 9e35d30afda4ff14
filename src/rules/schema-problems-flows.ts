// Schema problems inside `flows:` and inside the `when`/`set` of rules and flows, in words that name the
// flow, step or variable concerned and say what to write instead (ajv's own wording names JSON pointers).
import type { ErrorObject } from 'ajv/dist/2020.js';
import { problemAt, type RuleProblem } from '../diagnostics/problem.js';
import { nearest } from '../diagnostics/suggest.js';
import type { NodePath, ParsedYaml } from '../yaml/source.js';
import { isObject, pointerToPath, valueAt } from './schema-paths.js';
import { localizedTextProblem } from './text-problems.js';

/** Error keywords that only variable mappings (and choice options) raise. */
export const VARIABLE_ERRORS: ReadonlySet<string> = new Set(['propertyNames']);

/** Whether a path lies inside a `when` or `set` mapping of a rule or flow. */
export function isVariablePath(path: NodePath): boolean {
  return path.slice(2).some((segment) => segment === 'when' || segment === 'set');
}

const TRIGGER_KEYS = ['command', 'text', 'pattern', 'keywords', 'all', 'fallback'] as const;
function idOf(value: unknown, fallback: string): string {
  const id = isObject(value) ? value['id'] : undefined;
  return typeof id === 'string' && id.length > 0 ? `'${id}'` : fallback;
}

/** What a path points into, for messages: "rule 'greet'", "step 'date' of flow 'booking'", "the start of flow 'booking'" … */
export function ownerName(data: unknown, path: NodePath): string {
  const index = typeof path[1] === 'number' ? path[1] : 0;
  if (path[0] === 'rules') return `rule ${idOf(valueAt(data, ['rules', index]), `#${index + 1}`)}`;
  const flow = `flow ${idOf(valueAt(data, ['flows', index]), `#${index + 1}`)}`;
  const part = path[2];
  const sub = typeof path[3] === 'number' ? path[3] : 0;
  if (part === 'steps' && typeof path[3] === 'number') return `step ${idOf(valueAt(data, ['flows', index, 'steps', sub]), `#${sub + 1}`)} of ${flow}`;
  if (part === 'done' && typeof path[3] === 'number') return `done branch #${sub + 1} of ${flow}`;
  if (part === 'start' && typeof path[3] === 'number') return `start #${sub + 1} of ${flow}`;
  if (part === 'start' || part === 'cancel' || part === 'timeout') return `the ${part} of ${flow}`;
  return flow;
}

/** The field a path names under its owner, e.g. `accept.number.min`, `when.user.age`. */
function fieldOf(path: NodePath): string {
  let start = 2;
  if (path[0] === 'flows' && (path[2] === 'steps' || path[2] === 'done') && typeof path[3] === 'number') start = 4;
  else if (path[0] === 'flows' && path[2] === 'start' && typeof path[3] === 'number') start = 4;
  else if (path[0] === 'flows' && (path[2] === 'start' || path[2] === 'cancel' || path[2] === 'timeout')) start = 3;
  return path
    .slice(start)
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}

const SCOPES_FOR = { when: 'user.NAME, chat.NAME, member.NAME or flow.STEP', set: 'user.NAME, chat.NAME or member.NAME' } as const;

/**
 * The problem for a schema error under `flows:` or in a `when`/`set`; null to leave it to the rule
 * messages, undefined when another error of the same node says it better.
 */
export function flowOrVariableProblem(error: ErrorObject, data: unknown, parsed: ParsedYaml): RuleProblem | undefined | null {
  const path = pointerToPath(error.instancePath);
  const site: FlowErrorSite = {
    error,
    parsed,
    path,
    owner: ownerName(data, path),
    field: fieldOf(path),
    value: valueAt(data, path),
    last: path[path.length - 1],
    params: error.params as Record<string, unknown>,
    here: (message) => problemAt(parsed.locate(path), message),
  };
  // `start:` is one trigger or a list: the branch that does not fit its shape has nothing to say.
  if (path[2] === 'start' && path.length === 3 && error.keyword === 'type') return undefined;
  const message = FLOW_MESSAGES.get(error.keyword) ?? otherProblem;
  return message(site);
}

/** One schema error in a flow or a variable mapping, with what its message needs. */
interface FlowErrorSite {
  error: ErrorObject;
  parsed: ParsedYaml;
  path: NodePath;
  /** What the path points into: "rule 'greet'", "step 'date' of flow 'booking'" … */
  owner: string;
  /** The field under the owner, e.g. `accept.number.min`. */
  field: string;
  value: unknown;
  /** The path's last segment. */
  last: string | number | undefined;
  params: Record<string, unknown>;
  /** A problem placed at the error's node. */
  here: (message: string) => RuleProblem;
}

/** A message for one kind of schema error: null leaves it to the rule messages, undefined to another error of the node. */
type FlowMessage = (site: FlowErrorSite) => RuleProblem | undefined | null;

function variableNameProblem({ parsed, path, owner, last, params }: FlowErrorSite): RuleProblem {
  const name = String(params['propertyName']);
  const at = parsed.locate([...path, name], true);
  if (last === 'when' || last === 'set') {
    const why = name.includes('.') ? `unknown scope '${name.split('.')[0]}'` : 'no scope';
    return problemAt(at, `'${name}' in the \`${last}\` of ${owner}: ${why}; write ${SCOPES_FOR[last]} (names: letters, digits, '_', at most 64)`);
  }
  return problemAt(at, `option '${name}' in ${owner} must be 1 to 1024 characters`);
}

function unknownKeyProblem({ error, parsed, path, owner, field, params }: FlowErrorSite): RuleProblem {
  const extra = String(params['additionalProperty']);
  const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  const suggestion = nearest(extra, known);
  const hint = suggestion ? `; did you mean '${suggestion}'?` : known.length ? `; known keys: ${known.join(', ')}` : '';
  return problemAt(
    parsed.locate([...path, extra], true),
    `unknown key '${extra}' in ${field && !/^(start|cancel|timeout)$/.test(String(path[2])) ? `'${field}' of ` : ''}${owner}${hint}`,
  );
}

function missingKeyProblem({ path, owner, params, here }: FlowErrorSite): RuleProblem | null {
  const missing = String(params['missingProperty']);
  if (path[0] !== 'flows') return null;
  if (path.length === 2 && missing === 'start') return here(`${owner} has no start: add \`start:\` with a trigger, e.g. { command: book }`);
  if (path.length === 2 && missing === 'steps') return here(`${owner} has no steps: add \`steps:\`, a list of questions with id and ask`);
  return here(`${owner} needs '${missing}'`);
}

function oneOfProblem({ parsed, path, owner, value, here }: FlowErrorSite): RuleProblem | undefined {
  if (!isObject(value)) return undefined;
  if (path[2] === 'start') {
    const present = TRIGGER_KEYS.filter((k) => k in value && !(k === 'all' && 'keywords' in value));
    if (present.length === 0) return here(`${owner} has no trigger: add one of ${TRIGGER_KEYS.join(', ')}`);
    return problemAt(parsed.locate([...path, present[1]!], true), `${owner} has ${present.length} triggers (${present.join(', ')}): keep one`);
  }
  return here(`the \`accept\` of ${owner} takes exactly one of pattern, number or choice (without accept, any text is taken)`);
}

function anyOfProblem({ path, owner, field, value, last, here }: FlowErrorSite): RuleProblem | undefined | null {
  const parent = path[path.length - 2];
  if (parent === 'when')
    return here(`the condition on '${String(last)}' in ${owner} must be a text, a number or a mapping of exists, equals, not, gt, gte, lt, lte`);
  if (parent === 'set')
    return here(
      `the value of '${String(last)}' in the \`set\` of ${owner} must be a text (at most 1024 characters), a number, { increment: N } or { unset: true }`,
    );
  if (last === 'cancel') return here(`${owner} needs \`keywords\` or \`command\`: what cancels the flow`);
  if (last === 'start' && path.length === 3)
    return isObject(value) || Array.isArray(value) ? undefined : here(`${owner} must be a trigger, e.g. { command: book }, or a list of them`);
  if (last === 'equals' || last === 'not') return here(`'${field}' in ${owner} must be a text or a number`);
  // A question, retry or reply of a flow: a text, or one per language.
  if (path[0] === 'flows') return here(localizedTextProblem(value, field, owner));
  return null;
}

function patternProblem({ path, owner, value, last, here }: FlowErrorSite): RuleProblem | null {
  if (last === 'after') return here(`'${String(value)}' in ${owner} is not a duration: write a number and a unit (s, m, h or d), e.g. 15m`);
  if (last === 'id' && path[2] === 'steps')
    return here(
      `step id '${String(value)}' in ${owner.replace(/^step \S+ of /, '')} may use only letters, digits and '_' (at most 64, not starting with a digit): it is used as {{flow.ID}}`,
    );
  if (last === 'id') return here(`flow id '${String(value)}' may use only letters, digits, '_', '-' and '.' (at most 64, starting with a letter or digit)`);
  if (last === 'command' && typeof value === 'string' && value.startsWith('/'))
    return here(`write the command without the slash: '${value.replace(/^\/+/, '')}'`);
  if (last === 'command') return here(`command '${String(value)}' in ${owner} is not a command name: use 1 to 32 letters, digits or underscores`);
  return null;
}

function emptyProblem({ error, path, owner, field, here }: FlowErrorSite): RuleProblem | null {
  if (path[0] !== 'flows' && error.keyword !== 'minProperties') return null;
  return here(`'${field}' in ${owner} must not be empty`);
}

function otherProblem({ error, path, owner, field, here }: FlowErrorSite): RuleProblem | null {
  if (path[0] !== 'flows') return null;
  return here(`'${field || 'flow'}' in ${owner} ${error.message ?? 'is invalid'}`);
}

/** The message for each kind of schema error in a flow or variable mapping; any other kind gets otherProblem's. */
const FLOW_MESSAGES: ReadonlyMap<string, FlowMessage> = new Map<string, FlowMessage>([
  ['propertyNames', variableNameProblem],
  ['additionalProperties', unknownKeyProblem],
  ['required', missingKeyProblem],
  ['oneOf', oneOfProblem],
  ['anyOf', anyOfProblem],
  ['pattern', patternProblem],
  [
    'maxLength',
    ({ owner, field, params, here }) => here(`'${field}' in ${owner} is longer than ${String(params['limit'])} characters, the limit for a variable's value`),
  ],
  ['const', ({ owner, last, here }) => (last === 'unset' ? here(`'unset' in ${owner} must be \`true\`; to keep the variable, remove the entry`) : null)],
  ['minProperties', emptyProblem],
  ['minItems', emptyProblem],
  ['minLength', emptyProblem],
]);
