// Compiles what a rule asks of the operator's backends: its `call` with the `on` branches its outcome picks (each
// a rule's worth of answer: reply, messages, media, buttons, keyboard, set, send, notify, moderation; for a button
// press answer, alert and edit — compiled as the rule's own are, with {{result.…}} readable), and its `notify`
// requests. The rule's own reply belongs in the branches: a rule that calls may keep only its trigger, conditions,
// `set` (applied before the call, readable in its path), `send`/`notify` and moderation (whatever the outcome).
import type { CallBranch, Notify, Rule } from '../generated/rules-schema.js';
import { compileRuleActions, type RuleProblemSink } from './compile-actions.js';
import { compileMedia, MEDIA_KEYS, UNREAD_MEDIA } from './compile-media.js';
import { compileRequest, type CompiledRequest, type RequestSource } from './compile-calls.js';
import { compileRuleTexts, type RuleSetSettings } from './compile-reach.js';
import { compileSends, handoffWithoutConfig } from './compile-sends.js';
import { compileModeration, type CompiledModeration } from './compile-moderation.js';
import type { CompiledRule } from './rule-set.js';
import type { TemplateContext } from './template.js';
import { compileAssignments } from './variables.js';

/** What a branch says to the user: the reply parts of a rule. */
export type ReplyParts = Pick<
  CompiledRule,
  | 'id'
  | 'replies'
  | 'localizedReplies'
  | 'messages'
  | 'parseMode'
  | 'buttons'
  | 'keyboard'
  | 'answer'
  | 'alert'
  | 'edit'
  | 'replyToMessage'
  | 'disableNotification'
  | 'media'
>;

/** One branch of a call's `on`. */
export interface CompiledBranch extends ReplyParts {
  readonly set: CompiledRule['set'];
  readonly sends: CompiledRule['sends'];
  readonly notifies: readonly CompiledRequest[];
  /** `handoff: true` hands the user to a person after the branch's answer (`start`); `false` hands them back (`end`). */
  readonly handoff?: 'start' | 'end';
  /** What the branch does to the group (adds to the rule's own); null when nothing. */
  readonly moderation: CompiledModeration | null;
}

/** A rule's call and its branches by key (`ok`, `error`, a status code). */
export interface CompiledCall {
  readonly request: CompiledRequest;
  readonly on: ReadonlyMap<string, CompiledBranch>;
}

/** What a rule says that a call would make ambiguous: it belongs in a branch. */
const REPLY_KEYS = ['reply', 'messages', 'buttons', 'keyboard', 'answer', 'alert', 'edit', ...MEDIA_KEYS, 'caption'] as const;

/** The rule's call (null when it has none) and notifies; undefined when one of them has an error (reported). */
export function compileRuleCalls(
  rule: Rule,
  context: TemplateContext,
  name: string,
  report: RuleProblemSink,
  settings: RuleSetSettings,
): { call: CompiledCall | null; notifies: readonly CompiledRequest[] } | undefined {
  const notifies = compileNotifies(rule.notify, ['notify'], context, name, report, settings);
  if (rule.call === undefined) {
    if (rule.on !== undefined) report(['on'], `\`on\` picks a branch by the outcome of a call, and ${name} has no \`call\`: add one, or remove \`on\``);
    return notifies ? { call: null, notifies } : undefined;
  }
  for (const key of REPLY_KEYS)
    if (rule[key] !== undefined) report([key], `${name} calls a backend, so what it says depends on the outcome: move \`${key}\` into the branches of \`on\``);
  if (rule.handoff !== undefined)
    report(
      ['handoff'],
      `${name} calls a backend, so whether it hands off depends on the outcome: move \`handoff: ${rule.handoff}\` into the branch of \`on\` that should hand off, e.g. error: { reply: ..., handoff: ${rule.handoff} }`,
    );
  const request = compileRequest(
    rule.call as RequestSource,
    'call',
    context,
    `the call of ${name}`,
    (path, m, s) => report(['call', ...path], m, s),
    settings.environment,
  );
  if (rule.on === undefined) {
    report(['call'], `${name} calls a backend but has no \`on\`: give the branches that answer, e.g. on: { ok: { reply: ... }, error: { reply: ... } }`);
    return undefined;
  }
  const on = new Map<string, CompiledBranch>();
  let ok = request !== undefined && notifies !== undefined;
  for (const [key, branch] of Object.entries(rule.on)) {
    if (branch === undefined) continue;
    const compiled = compileBranch(rule, key, branch, { ...context, result: true }, name, (path, m, s) => report(['on', key, ...path], m, s), settings);
    if (compiled) on.set(key, compiled);
    else ok = false;
  }
  if (!on.has('error'))
    report(
      ['on'],
      `${name} has no \`error\` branch: when ${rule.call.backend} does not answer (or answers an error), the user gets no answer; add error: { reply: ... }`,
      'warning',
    );
  return ok ? { call: Object.freeze({ request: request!, on }), notifies: notifies! } : undefined;
}

function compileBranch(
  rule: Rule,
  key: string,
  branch: CallBranch,
  context: TemplateContext,
  ruleName: string,
  report: RuleProblemSink,
  settings: RuleSetSettings,
): CompiledBranch | undefined {
  const name = `the ${key} branch of ${ruleName}`;
  // A branch says what a rule would, with the rule's parse_mode and reply options unless it gives its own.
  const inherited = {
    ...(rule.parse_mode ? { parse_mode: rule.parse_mode } : {}),
    ...(rule.reply_to_message !== undefined ? { reply_to_message: rule.reply_to_message } : {}),
    ...(rule.disable_notification !== undefined ? { disable_notification: rule.disable_notification } : {}),
  };
  const asRule = { id: rule.id, ...(rule.callback !== undefined ? { callback: rule.callback } : { fallback: true }), ...inherited, ...branch } as Rule;
  const texts = compileRuleTexts(asRule, context, settings.languages, name, report, settings.media);
  const media = compileMedia(asRule, context, { name, report, lookup: settings.media ?? UNREAD_MEDIA, parseMode: asRule.parse_mode });
  const actions = compileRuleActions(asRule, context, name, report);
  const sends = compileSends(asRule, context, name, report, settings.environment);
  const set = compileAssignments(branch.set, { name }, context, (at, message, severity) => report(at ? ['set', at] : ['set'], message, severity));
  const notifies = compileNotifies(branch.notify, ['notify'], context, name, report, settings);
  const missing = branch.handoff === true ? handoffWithoutConfig(name, settings.environment) : undefined;
  if (missing) report(['handoff'], missing);
  // Checked against the rule's trigger and chat types: a branch acts where its rule answers.
  const trigger = { ...(rule.event !== undefined ? { event: rule.event } : {}), ...(rule.callback !== undefined ? { callback: rule.callback } : {}) };
  const moderation = compileModeration({ ...branch, ...trigger, ...(rule.chat_types ? { chat_types: rule.chat_types } : {}) }, name, report);
  if (!actions || !sends || !notifies || media === undefined) return undefined;
  return Object.freeze({
    id: rule.id,
    ...texts,
    media,
    ...actions,
    ...(asRule.parse_mode ? { parseMode: asRule.parse_mode } : {}),
    replyToMessage: asRule.reply_to_message === true,
    disableNotification: asRule.disable_notification === true,
    set,
    sends,
    notifies,
    ...(branch.handoff !== undefined ? { handoff: branch.handoff ? ('start' as const) : ('end' as const) } : {}),
    moderation,
  });
}

/** Whether a branch of the rule's call has a reply (which the rule's `pin: reply` pins). */
export function branchesReply(rule: Rule): boolean {
  return Object.values(rule.on ?? {}).some(
    (branch) => branch !== undefined && (branch.reply !== undefined || branch.messages !== undefined || MEDIA_KEYS.some((key) => branch[key] !== undefined)),
  );
}

/** The `notify` requests at `path` (one, or a list); undefined when one has an error (reported). */
export function compileNotifies(
  notify: Notify | readonly Notify[] | undefined,
  path: (string | number)[],
  context: TemplateContext,
  name: string,
  report: RuleProblemSink,
  settings: RuleSetSettings,
): readonly CompiledRequest[] | undefined {
  if (notify === undefined) return [];
  const list: readonly Notify[] = Array.isArray(notify) ? notify : [notify as Notify];
  const compiled: CompiledRequest[] = [];
  let ok = true;
  for (const [i, item] of list.entries()) {
    const at = Array.isArray(notify) ? [...path, i] : path;
    const what = `the notify of ${name}${list.length > 1 ? ` (#${i + 1})` : ''}`;
    const request = compileRequest(item as RequestSource, 'notify', context, what, (p, m, s) => report([...at, ...p], m, s), settings.environment);
    if (request) compiled.push(request);
    else ok = false;
  }
  return ok ? Object.freeze(compiled) : undefined;
}
