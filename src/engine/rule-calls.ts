// A rule with a `call` at decide time: the request is rendered with the values the reply would see (after the
// rule's `set`), and the decision pends on it; once the caller has the result, the branch of `on` it picks is
// answered like a rule: its `set` (on top of the rule's), its replies, sends and notifies, in the user's language,
// with {{result.…}} reading the answer, and the rule's moderation with the branch's. No branch for the outcome:
// nothing more is said (the rule's own moderation is still performed).
import type { Message } from '@grammyjs/types';
import type { Action } from './actions.js';
import { ruleReplies } from './answer.js';
import { branchKey, type BackendResult } from './backend-calls.js';
import { renderRequest } from './compile-calls.js';
import type { CompiledBranch, CompiledCall } from './compile-rule-calls.js';
import type { Decision, DecideContext } from './decide-types.js';
import type { MessageEvent } from './events.js';
import { notifyEffects } from './notifies.js';
import { reminderActions } from './reminders.js';
import type { RenderValues } from './render.js';
import type { CompiledRule } from './rule-set.js';
import { sendEffects } from './sends.js';
import { combineModeration } from './compile-moderation.js';
import { moderateAround } from './moderation.js';
import { applyAssignments, type AppliedAssignments, type VariableValues } from './variables.js';
import { endHandoff, isHandedOff, startHandoff } from './handoff.js';

/** What answering a rule had worked out by the time it met its call. */
export interface CallSite {
  readonly event: { readonly message: Message; readonly chat: MessageEvent['chat']; readonly from?: MessageEvent['from'] };
  /** The values the reply would see: the message's, and the variables after the rule's `set`. */
  readonly rendered: RenderValues;
  /** The rule's `set`: its actions and the variables after it. */
  readonly applied: AppliedAssignments;
  /** The message a reply answers (reply_to_message). */
  readonly triggerId: number | undefined;
  readonly context: DecideContext;
  /** The user's language after the rule's `set`. */
  readonly language: string | undefined;
  /** The user's language for other variables (a branch's `set` may change the choice). */
  readonly languageOf?: (values: VariableValues) => string | undefined;
}

/** The rule's decision up to its call: its `set`, its sends and notifies (whatever the outcome), and the call pending. */
export function callRule(rule: CompiledRule, call: CompiledCall, site: CallSite): Decision {
  const { rendered, context } = site;
  const before: Action[] = [...site.applied.actions];
  if (rule.sends.length > 0) before.push(...sendEffects(rule.sends, rendered, context, site.language));
  if (rule.notifies) before.push(...notifyEffects(rule.notifies, rendered, context, site.event.chat.id));
  before.push(...reminderActions(rule.reminders, rendered, site.event.chat.id, site.event.from?.id, rendered.now ?? Date.now()));
  return {
    ruleId: rule.id,
    actions: before,
    call: { request: renderRequest(call.request, rendered), resume: (result) => ({ ruleId: rule.id, actions: branchActions(rule, call, result, site) }) },
  };
}

/** The branch of `on` that answers this result, if `on` has one for it. */
export function pickBranch<B>(on: ReadonlyMap<string, B>, result: BackendResult): B | undefined {
  const key = branchKey(result, (k) => on.has(k));
  return key === undefined ? undefined : on.get(key);
}

/**
 * What the branch does: its `set`, then its replies to the chat with the rule's moderation and its own around
 * them (the rule's whatever the outcome), its hand-off, its sends and notifies.
 */
function branchActions(rule: CompiledRule, call: CompiledCall, result: BackendResult, site: CallSite): Action[] {
  const branch = pickBranch(call.on, result);
  const { context, event } = site;
  const moderation = combineModeration(rule.moderation, branch?.moderation);
  const target = { chatId: event.chat.id, messageId: site.triggerId ?? 0, userId: event.from?.id };
  const now = site.rendered.now ?? (context.now ?? Date.now)();
  if (!branch) return moderateAround([], moderation, target, now);
  const { values, applied, language } = branchValues(branch, result, site);
  const replies = ruleReplies(branch, values, event.chat.id, site.triggerId, context, language);
  const actions: Action[] = [...applied.actions, ...moderateAround(replies, moderation, target, now)];
  // As for a rule: the topic opens after the branch's replies (part of the chat so far) and before its sends, which may link to it.
  actions.push(...branchHandoff(branch, event.message, rule.id, applied.values, context, replies.length));
  if (branch.sends.length > 0) actions.push(...sendEffects(branch.sends, values, context, language));
  if (branch.notifies.length > 0) actions.push(...notifyEffects(branch.notifies, values, context, event.chat.id));
  return actions;
}

/**
 * What a branch's `handoff` does: `true` hands the user to a person (the chat so far ends with the branch's
 * `answered` messages), `false` hands a handed-off user back; nothing without one.
 */
export function branchHandoff(
  branch: Pick<CompiledBranch, 'handoff'>,
  message: Message,
  ruleId: string,
  values: VariableValues,
  context: DecideContext,
  answered: number,
): Action[] {
  if (branch.handoff === 'start') return startHandoff(message, ruleId, values, context, answered);
  if (branch.handoff === 'end' && isHandedOff(values)) return endHandoff(message.chat.id, values, context, 'the customer left');
  return [];
}

/** The values a branch's templates see: the rule's, the result, and the variables after the branch's own `set`. */
export function branchValues(
  branch: CompiledBranch,
  result: BackendResult,
  site: Pick<CallSite, 'rendered' | 'applied' | 'event' | 'language' | 'languageOf'>,
): { values: RenderValues; applied: AppliedAssignments; language: string | undefined } {
  const { message, args, captures, flow, flowResults } = site.rendered;
  const base: RenderValues = { message, result };
  if (args !== undefined) base.args = args;
  if (captures) base.captures = captures;
  if (flow) base.flow = flow;
  if (flowResults) base.flowResults = flowResults;
  if (site.rendered.now !== undefined) base.now = site.rendered.now;
  if (site.rendered.topicLink !== undefined) base.topicLink = site.rendered.topicLink;
  const applied = applyAssignments(branch.set, site.applied.values, base, site.event.from !== undefined);
  const language = branch.set.length > 0 && site.languageOf ? site.languageOf(applied.values) : site.language;
  return { values: { ...base, vars: applied.values }, applied, language };
}
