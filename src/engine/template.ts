// Reply templates are compiled once, at load time, into literal parts and variable references, and
// every placeholder is checked against what the rule's trigger can fill. Rendering never evaluates
// code or reads object properties by a user-given name: it only switches over this closed set.
import type { OpeningHours } from '../calendar/opening-hours.js';
import type { LanguageSettings } from './languages.js';
import { MESSAGE_FIELDS, type MessageField } from './message-media.js';
import { UTC_TIME, type TimeSettings } from './time-settings.js';

export type TemplateVariable = TemplateValue & {
  /** Written instead when the value is empty (`{{var.chat.votes | 0}}`). */
  readonly otherwise?: string;
};

/** What a placeholder stands for. */
export type TemplateValue =
  | { kind: 'user.first_name' | 'user.last_name' | 'user.username' | 'user.id' }
  | { kind: 'chat.id' | 'chat.type' | 'chat.title' | 'text' | 'args' | 'message.topic' }
  | { kind: 'match'; group: number | string }
  /** A field of the message's media ({{message.caption}}, {{message.latitude}} …); empty when it has none. */
  | { kind: 'message'; field: MessageField }
  /** A variable of the user, the chat or the member ({{var.user.name}}, {{var.member.warnings}}); empty when it has no value. */
  | { kind: 'var'; scope: 'user' | 'chat' | 'member'; key: string }
  /**
   * The answer to a step of the current flow ({{flow.date}}): a date step's answer written in the user's language,
   * or `iso` as kept; with a path, the JSON a backend gave a step it accepted ({{flow.order.status}}).
   */
  | { kind: 'flow'; key: string; as?: 'date' | 'iso'; time?: TimeSettings; path?: readonly string[] }
  /** The moment the text is written, in the rules' zone and the user's language ({{now.date}}, {{now.time}}, {{now.weekday}}). */
  | { kind: 'now'; field: 'date' | 'time' | 'weekday'; time: TimeSettings }
  /** Opening hours ({{hours.office.next_open}}: "Monday at 09:00"; {{hours.office.closes}}: "18:00"). */
  | { kind: 'hours'; field: 'next_open' | 'closes'; hours: OpeningHours; time: TimeSettings }
  /** The answer of the call whose `on` branch this is: a JSON path ({{result.items.0.name}}, empty: the whole answer), or its status ({{result.status_code}}). */
  | { kind: 'result'; path: readonly string[] }
  | { kind: 'result_status' }
  /** The answer a flow step is validating with a backend call ({{answer}}). */
  | { kind: 'answer' }
  /** The link to the user's topic in the hand-off's staff group ({{handoff.topic_link}}); empty when they have none. */
  | { kind: 'handoff_topic_link' };

export type TemplatePart = string | TemplateVariable;

export interface Template {
  readonly source: string;
  readonly parts: readonly TemplatePart[];
  /** True when the text has no placeholders (its length is then known at check time). */
  readonly isStatic: boolean;
  /**
   * For a text given per language: the translations and the languages block that picks one for the user
   * who is answered (render does). This template itself is the default language's text.
   */
  readonly localized?: { readonly settings: LanguageSettings; readonly byLanguage: ReadonlyMap<string, Template> };
}

export type TriggerKind = 'command' | 'text' | 'pattern' | 'keywords' | 'fallback' | 'callback' | 'event';

export interface TemplateContext {
  trigger: TriggerKind;
  /** For pattern and callback rules: number of capturing groups and the named ones. */
  groupCount?: number;
  groupNames?: ReadonlySet<string>;
  /** The rule files' `languages` block, for texts given per language. */
  languages?: LanguageSettings;
  /**
   * Inside a flow: the steps answered by the time this template is rendered, and all of the flow's steps (with the
   * kind of the date and time steps); `called`: the steps accepted by a backend call, whose JSON answers
   * {{flow.STEP.PATH}} reads.
   */
  flow?: {
    readonly id: string;
    readonly answered: readonly string[];
    readonly steps: readonly string[];
    readonly kinds?: ReadonlyMap<string, 'date' | 'time'>;
    readonly called?: readonly string[];
  };
  /** In a branch of a call's `on`: {{result.PATH}} and {{result.status_code}} read its answer. */
  result?: boolean;
  /** In the call of a flow step's `accept`: {{answer}} is the answer being checked. */
  answer?: boolean;
  /** The rules' zone and opening hours, for {{now.*}}, {{hours.*}} and date steps (UTC and none when absent). */
  time?: TimeSettings;
  /** Rendered with no message at hand (a flow's timeout reply): only variables and flow answers can be filled. */
  withoutMessage?: boolean;
}

const SIMPLE = [
  'user.first_name',
  'user.last_name',
  'user.username',
  'user.id',
  'chat.id',
  'chat.type',
  'chat.title',
  'message.topic',
  'text',
  'args',
] as const;
export const TEMPLATE_VARIABLES: readonly string[] = [
  ...SIMPLE,
  'match.N',
  'match.NAME',
  'var.user.NAME',
  'var.chat.NAME',
  'var.member.NAME',
  'flow.STEP',
  'result.PATH',
  'handoff.topic_link',
  ...MESSAGE_FIELDS.map((field) => `message.${field}`),
  'now.date',
  'now.time',
  'now.weekday',
  'hours.NAME.next_open',
  'hours.NAME.closes',
];
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

export type TemplateResult = { ok: true; template: Template } | { ok: false; errors: string[] };

export function compileTemplate(source: string, context: TemplateContext): TemplateResult {
  const parts: TemplatePart[] = [];
  const errors: string[] = [];
  let last = 0;
  for (const m of source.matchAll(PLACEHOLDER)) {
    if (m.index > last) parts.push(source.slice(last, m.index));
    last = m.index + m[0].length;
    const [name, otherwise] = splitDefault(m[1]!);
    const result = resolve(name, context);
    if (typeof result === 'string') errors.push(result);
    else parts.push(otherwise === undefined ? result : { ...result, otherwise });
  }
  if (last < source.length) parts.push(source.slice(last));
  const stray = source.replace(PLACEHOLDER, '');
  if (stray.includes('{{') || stray.includes('}}')) {
    errors.push(`unbalanced '{{' or '}}' in "${shorten(source)}": placeholders look like {{user.first_name}}`);
  }
  if (errors.length > 0) return { ok: false, errors };
  const merged = mergeLiterals(parts);
  return { ok: true, template: { source, parts: merged, isStatic: merged.every((p) => typeof p === 'string') } };
}

/** `var.chat.votes | 0` → the name and the default (quotes around it are taken off); no `|`, no default. */
function splitDefault(inside: string): [string, string | undefined] {
  const bar = inside.indexOf('|');
  if (bar < 0) return [inside.trim(), undefined];
  const fallback = inside.slice(bar + 1).trim();
  const quoted = /^(["'])(.*)\1$/.exec(fallback);
  return [inside.slice(0, bar).trim(), quoted ? quoted[2]! : fallback];
}

function resolve(name: string, context: TemplateContext): TemplateValue | string {
  if (name.startsWith('now.') || name.startsWith('hours.')) return resolveTime(name, context);
  if ((SIMPLE as readonly string[]).includes(name)) {
    if (context.withoutMessage) return `{{${name}}} is not available here: the bot writes on its own, with no message to take it from`;
    if (name === 'args' && context.trigger !== 'command') {
      return `{{args}} is only available in command rules (it holds the text after the command)`;
    }
    return { kind: name as (typeof SIMPLE)[number] };
  }
  const match = /^match\.(\w+)$/.exec(name);
  if (match) {
    const group = match[1]!;
    if (context.trigger !== 'pattern' && context.trigger !== 'callback') return `{{${name}}} needs a pattern or callback rule: only patterns have captures`;
    if (/^\d+$/.test(group)) {
      const n = Number(group);
      const count = context.groupCount ?? 0;
      if (n > count) return `{{${name}}}: the pattern has ${count === 0 ? 'no capturing groups' : `only ${count} capturing group${count === 1 ? '' : 's'}`}`;
      return { kind: 'match', group: n };
    }
    if (!context.groupNames?.has(group)) {
      const names = [...(context.groupNames ?? [])];
      return `{{${name}}}: the pattern has no group named '${group}'${names.length ? ` (it has ${names.map((n) => `'${n}'`).join(', ')})` : ''}; name one with (?<${group}>...)`;
    }
    return { kind: 'match', group };
  }
  if (name.startsWith('var.') || name.startsWith('flow.')) return resolveVariable(name, context);
  if (name === 'result' || name.startsWith('result.')) return resolveResult(name, context);
  if (name === 'handoff.topic_link') return { kind: 'handoff_topic_link' };
  if (name === 'answer')
    return context.answer ? { kind: 'answer' } : `{{answer}} is only available in the call of a flow step's accept (it is the answer being checked)`;
  const field = /^message\.(\w+)$/.exec(name)?.[1];
  if (field !== undefined && (MESSAGE_FIELDS as readonly string[]).includes(field)) {
    if (context.withoutMessage) return `{{${name}}} is not available here: the bot writes on its own, with no message to take it from`;
    return { kind: 'message', field: field as MessageField };
  }
  return `unknown placeholder {{${name}}}; available: ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`;
}

/** {{now.date|time|weekday}} and {{hours.NAME.next_open|closes}}. */
function resolveTime(name: string, context: TemplateContext): TemplateValue | string {
  const time = context.time ?? UTC_TIME;
  const now = /^now\.(date|time|weekday)$/.exec(name);
  if (now) return { kind: 'now', field: now[1] as 'date' | 'time' | 'weekday', time };
  const hours = /^hours\.([^.]+)\.(next_open|closes)$/.exec(name);
  if (!hours)
    return `unknown placeholder {{${name}}}; the clock gives {{now.date}}, {{now.time}}, {{now.weekday}}, {{hours.NAME.next_open}} and {{hours.NAME.closes}}`;
  const calendar = time.hours.get(hours[1]!);
  if (!calendar) {
    const known = [...time.hours.keys()];
    return `{{${name}}}: no opening hours are named '${hours[1]}' (${known.length > 0 ? `declared: ${known.join(', ')}` : 'declare them under hours:'})`;
  }
  return { kind: 'hours', field: hours[2] as 'next_open' | 'closes', hours: calendar, time };
}

/** {{var.user.x}}, {{var.chat.x}}, {{var.member.x}} and {{flow.x}}; a flow answer must come from an earlier step of the same flow. */
function resolveVariable(name: string, context: TemplateContext): TemplateVariable | string {
  const variable = /^var\.(user|chat|member)\.(.+)$/.exec(name);
  if (variable) {
    if (!VARIABLE_NAME.test(variable[2]!)) return `{{${name}}}: a variable name has letters, digits and '_' (at most 64, not starting with a digit)`;
    return { kind: 'var', scope: variable[1] as 'user' | 'chat' | 'member', key: variable[2]! };
  }
  const [step, ...path] = /^flow\.(.+)$/.exec(name)?.[1]?.split('.') ?? [];
  if (step === undefined) return `unknown placeholder {{${name}}}; variables are {{var.user.NAME}}, {{var.chat.NAME}} and {{var.member.NAME}}`;
  const flow = context.flow;
  if (!flow) return `{{${name}}} is only available inside a flow (its steps' questions and done)`;
  if (flow.answered.includes(step)) return answeredStep(name, step, path, flow, context);
  if (flow.steps.includes(step)) return `{{${name}}}: step '${step}' of flow '${flow.id}' is not answered yet at this point (it is this step or a later one)`;
  const known = flow.answered.length ? ` (answered by then: ${flow.answered.map((s) => `'${s}'`).join(', ')})` : ' (no step is answered yet here)';
  return `{{${name}}}: flow '${flow.id}' has no step '${step}'${known}`;
}

/**
 * An answered step: a date or time step reads `.iso` (the kept form) or, bare, the date in the user's language; a
 * step a backend call accepted reads a JSON path into that answer; any other step only its answer.
 */
function answeredStep(
  name: string,
  step: string,
  path: readonly string[],
  flow: NonNullable<TemplateContext['flow']>,
  context: TemplateContext,
): TemplateVariable | string {
  const kind = flow.kinds?.get(step);
  if (kind !== undefined) {
    if (path.length === 0) return kind === 'date' ? { kind: 'flow', key: step, as: 'date', time: context.time ?? UTC_TIME } : { kind: 'flow', key: step };
    if (path.length === 1 && path[0] === 'iso') return { kind: 'flow', key: step, as: 'iso' };
    return `{{${name}}}: step '${step}' of flow '${flow.id}' takes a ${kind}; write {{flow.${step}}} or {{flow.${step}.iso}}`;
  }
  if (path.length === 0) return { kind: 'flow', key: step };
  if (!flow.called?.includes(step)) {
    if (path.length === 1 && path[0] === 'iso') return `{{${name}}}: step '${step}' of flow '${flow.id}' takes no date or time; write {{flow.${step}}}`;
    return `{{${name}}}: step '${step}' of flow '${flow.id}' keeps only its answer ({{flow.${step}}}); a path reads the JSON of a step whose accept is a backend call`;
  }
  return pathProblem(name, path) ?? { kind: 'flow', key: step, path };
}

/** {{result}}, {{result.PATH}} and {{result.status_code}}: only in the branches of a call's `on`. */
function resolveResult(name: string, context: TemplateContext): TemplateVariable | string {
  if (!context.result) return `{{${name}}} is only available in the branches of a call's \`on\` (it reads the backend's answer)`;
  if (name === 'result.status_code') return { kind: 'result_status' };
  const path = name === 'result' ? [] : name.slice('result.'.length).split('.');
  return pathProblem(name, path) ?? { kind: 'result', path };
}

/** Why a JSON path cannot be read ({{result.a..b}}), or undefined when each of its keys is usable. */
function pathProblem(name: string, path: readonly string[]): string | undefined {
  if (path.some((key) => key === '')) return `{{${name}}}: an empty key in the path; write keys and indexes separated by dots, e.g. {{result.items.0.name}}`;
  if (path.length > 16) return `{{${name}}}: a path of at most 16 keys`;
  return undefined;
}

function mergeLiterals(parts: TemplatePart[]): TemplatePart[] {
  const out: TemplatePart[] = [];
  for (const part of parts) {
    const prev = out[out.length - 1];
    if (typeof part === 'string' && typeof prev === 'string') out[out.length - 1] = prev + part;
    else out.push(part);
  }
  return out;
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
