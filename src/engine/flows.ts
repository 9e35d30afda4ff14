// Flows at run time: starting one, routing a message of a user inside one (cancel first, then the
// during_flows rules, then the current step's accept), moving to the next step or to done, and leaving by
// done, cancel, timeout or because a reload removed the flow or step. Pure: positions go out as set_flow
// actions, answers as send_message.
import { startHandoff } from './handoff.js';
import type { Message } from '@grammyjs/types';
import type { Action, JsonValue, SetFlowAction } from './actions.js';
import { checkAnswerWithBackend, finishWithCall, type DoneModeration } from './flow-calls.js';
import { moderateAround } from './moderation.js';
import type { CompiledModeration } from './compile-moderation.js';
import { notifyEffects } from './notifies.js';
import { answerRule, messageValues, sendMediaAction, sendText } from './answer.js';
import { askQuestion, choiceIndex, type AskTarget } from './ask.js';
import type { Decision, DecideContext } from './decide-types.js';
import { NOTHING } from './decide-types.js';
import type { CallbackQueryEvent, FlowTimeoutEvent, MediaEvent, MessageEvent } from './events.js';
import { matchMessage, prepareMessage, type MatchResult, type PreparedMessage } from './match.js';
import { containsKeyword } from './keywords.js';
import { normalize } from './normalize.js';
import { audienceCheck, languageFor } from './reach.js';
import { render, type RenderValues } from './render.js';
import type { CompiledAccept, CompiledFlow, CompiledRule, CompiledStep, RuleSet } from './rule-set.js';
import { MAX_VALUE_LENGTH, variablesOf, type ConversationState, type FlowPosition, type StateValue } from './state.js';
import { applyAssignments, conditionsHold, type VariableValues } from './variables.js';
import { openHolds } from './time-settings.js';
import { reminderActions } from './reminders.js';
import { dateOrTimeAnswer, retryText, type StepAnswer } from './date-steps.js';

/** Sent to a user whose flow or current step a reload removed (or renamed); the flow is left. */
export const FLOW_ENDED_NOTICE = 'This conversation was changed by the bot operator and has ended. Please start again.';

/** How a message of a user inside a flow was routed: decided by the flow, or the flow was left and the message is still to be handled. */
export type FlowRouting = { readonly kind: 'decided'; readonly decision: Decision } | { readonly kind: 'left'; readonly decision: Decision };

const setFlow = (flow: FlowPosition | null): SetFlowAction => ({ type: 'set_flow', flow });

/** When a user's flow times out: its last activity plus the flow's timeout; null when the flow (now) has no timeout or no longer exists. */
export function flowDeadline(position: FlowPosition, ruleSet: RuleSet): number | null {
  const timeout = ruleSet.flows.get(position.flowId)?.timeout;
  return timeout ? position.lastActivity + timeout.afterMs : null;
}

/** The decision for a message whose best match is a flow's start: its `set`, the flow's position at the first step, and the first question. */
export function startFlow(rule: CompiledRule, match: MatchResult, event: MessageEvent, ruleSet: RuleSet, state: ConversationState, now: number): Decision {
  const flow = ruleSet.flows.get(rule.startsFlow!);
  // A flow belongs to a user; a message sent on behalf of a chat has none to keep it for.
  if (!flow || !event.from) return NOTHING;
  const applied = applyAssignments(rule.set, variablesOf(state), messageValues(event.message, match, now), true);
  const first = flow.steps[0]!;
  const values = { message: event.message, vars: applied.values, flow: {}, now };
  const actions: Action[] = [
    ...applied.actions,
    setFlow({ flowId: flow.id, stepId: first.id, values: {}, lastActivity: now }),
    ...stepMedia(first, event.chat.id, values),
    askQuestion(flow.id, first, askTargetOf(event, languageFor(ruleSet, event.from, state)), render(first.ask, values)),
  ];
  return { ruleId: flow.id, actions };
}

/** Routes a message of a user inside a flow (see the module comment). */
export function routeInFlow(
  event: MessageEvent,
  ruleSet: RuleSet,
  state: ConversationState,
  position: FlowPosition,
  context: DecideContext,
  now: number,
): FlowRouting {
  const left = flowLeftBefore(event, ruleSet, state, position, now);
  if (left) return left;
  const flow = ruleSet.flows.get(position.flowId)!;
  const index = flow.stepIndex.get(position.stepId)!;
  const prepared = prepareMessage(event.message, context.botUsername, false);
  if (!prepared || prepared.notForUs) return { kind: 'decided', decision: NOTHING };
  const values: VariableValues = { ...variablesOf(state), flow: position.values };
  const message = event.message;
  if (flow.cancel && cancels(flow.cancel, prepared)) {
    const text = render(flow.cancel.reply, { message, vars: values, flow: position.values, now });
    return { kind: 'decided', decision: { ruleId: `${flow.id}#cancel`, actions: [setFlow(null), sendText(event.chat.id, text)] } };
  }
  // during_flows rules answer as they would outside the flow: their `lang` and `mentioned` too, in the user's language.
  const vars = variablesOf(state);
  const whenHolds = audienceCheck(message, values, languageFor(ruleSet, event.from, state), context.botUsername, now);
  const during = matchMessage(message, { index: ruleSet.duringFlowsIndex }, context.botUsername, whenHolds);
  if (during) {
    const decision = answerRule(during.rule, during, event, vars, context, (after) => languageFor(ruleSet, event.from, after));
    return { kind: 'decided', decision };
  }
  const accept = flow.steps[index]!.accept;
  const value = acceptedValue(accept, prepared, now);
  const at: StepEvent = { message, target: askTargetOf(event, languageFor(ruleSet, event.from, state)), hasUser: true, context };
  if (accept.kind !== 'call' || value === undefined) return { kind: 'decided', decision: answerStep(flow, index, position, value, at, values, now) };
  // A backend says whether the answer is taken: the step moves on (or is asked again) once it has answered.
  const checked = { message, vars: values, flow: position.values, answer: String(value), now, ...(position.results ? { flowResults: position.results } : {}) };
  const decision = checkAnswerWithBackend(
    accept.request,
    checked,
    `${flow.id}#${position.stepId}`,
    (result) => answerStep(flow, index, position, value, at, values, now, result),
    () => answerStep(flow, index, position, undefined, at, values, now),
  );
  return { kind: 'decided', decision };
}

/** The flow was left before this message came: a reload removed it (or its step), or it timed out; undefined when it goes on. */
export function flowLeftBefore(
  event: MessageEvent | MediaEvent,
  ruleSet: RuleSet,
  state: ConversationState,
  position: FlowPosition,
  now: number,
): FlowRouting | undefined {
  const flow = ruleSet.flows.get(position.flowId);
  const index = flow?.stepIndex.get(position.stepId);
  if (!flow || index === undefined) {
    return { kind: 'left', decision: { ruleId: `${position.flowId}#ended`, actions: [setFlow(null), sendText(event.chat.id, FLOW_ENDED_NOTICE)] } };
  }
  if (flow.timeout && now >= position.lastActivity + flow.timeout.afterMs)
    return { kind: 'left', decision: timedOut(flow, position, state, now, event.chat.id, event.from) };
  return undefined;
}

/** The question's target for a message: its chat, replying to it in a group, in the user's language. */
export function askTargetOf(event: MessageEvent | MediaEvent, language: string | undefined): AskTarget {
  return { chatId: event.chat.id, private: event.chat.type === 'private', replyTo: event.message.message_id, language };
}

/** What answering a step needs from the event: a message for templates, where the next question goes, whether there is a user. */
export interface StepEvent {
  readonly message: Message;
  readonly target: AskTarget;
  readonly hasUser: boolean;
  readonly context: DecideContext;
}

/**
 * A press of a button of a choice step that the user is at in this chat: the option chosen, as if typed,
 * after the press's (empty) answer. Undefined when the press is not for the user's current step (another
 * button, a step already answered, another member's question, or no flow): the callback rules may answer it.
 */
export function routePress(
  event: CallbackQueryEvent,
  ruleSet: RuleSet,
  state: ConversationState,
  message: Message,
  now: number,
  context: DecideContext,
): Decision | undefined {
  const position = state.flow;
  if (!position || !event.chat || event.data === undefined) return undefined;
  const flow = ruleSet.flows.get(position.flowId);
  const index = flow?.stepIndex.get(position.stepId);
  if (!flow || index === undefined) return undefined;
  const step = flow.steps[index]!;
  if (step.accept.kind !== 'choice') return undefined;
  const choice = step.accept.choices[choiceIndex(event.data, flow.id, step.id) ?? -1];
  if (choice === undefined) return undefined;
  const answer: Action = { type: 'answer_callback', callbackQueryId: event.id };
  const chat = event.chat;
  let decision: Decision;
  if (flow.timeout && now >= position.lastActivity + flow.timeout.afterMs) {
    decision = timedOut(flow, position, state, now, chat.id);
  } else {
    // A question after a press replies to the user's message its question replied to, if any.
    const asked = event.message && 'reply_to_message' in event.message ? event.message.reply_to_message?.message_id : undefined;
    const language = languageFor(ruleSet, event.from, state);
    const target: AskTarget = { chatId: chat.id, private: chat.type === 'private', ...(asked !== undefined ? { replyTo: asked } : {}), language };
    const values: VariableValues = { ...variablesOf(state), flow: position.values };
    decision = answerStep(flow, index, position, choice, { message: { ...message, from: event.from } as Message, target, hasUser: true, context }, values, now);
  }
  return { ruleId: decision.ruleId, actions: [answer, ...decision.actions] };
}

/** The step's answer (undefined: not accepted, the question again): the next question, or the flow's end. */
export function answerStep(
  flow: CompiledFlow,
  index: number,
  position: FlowPosition,
  value: StepAnswer,
  at: StepEvent,
  values: VariableValues,
  now: number,
  result?: JsonValue,
): Decision {
  const step = flow.steps[index]!;
  const message = at.message;
  const kept = position.results;
  if (value === undefined || typeof value === 'object') {
    const text = render(retryText(step, value) ?? step.ask, { message, vars: values, flow: position.values, now, ...(kept ? { flowResults: kept } : {}) });
    return { ruleId: `${flow.id}#${step.id}`, actions: [setFlow({ ...position, lastActivity: now }), askQuestion(flow.id, step, at.target, text)] };
  }
  const answers: Record<string, StateValue> = { ...position.values };
  Object.defineProperty(answers, step.id, { value, enumerable: true, writable: true, configurable: true });
  const results = result === undefined ? kept : withResult(kept, step.id, result);
  const next = flow.steps[index + 1];
  if (next) {
    const asking = { message, vars: values, flow: answers, now, ...(results ? { flowResults: results } : {}) };
    const moved: FlowPosition = {
      ...{ flowId: flow.id, stepId: next.id, values: answers, lastActivity: now },
      ...(results ? { results } : {}),
      ...(position.joinChat !== undefined ? { joinChat: position.joinChat } : {}),
    };
    return {
      ruleId: `${flow.id}#${step.id}`,
      actions: [setFlow(moved), ...stepMedia(next, at.target.chatId, asking), askQuestion(flow.id, next, at.target, render(next.ask, asking))],
    };
  }
  return finish(flow, at, { ...values, flow: answers }, results, now, position.joinChat);
}

/** The step's JSON answers with one more. */
function withResult(kept: FlowPosition['results'], stepId: string, result: JsonValue): Record<string, JsonValue> {
  const results: Record<string, JsonValue> = { ...kept };
  Object.defineProperty(results, stepId, { value: result, enumerable: true, writable: true, configurable: true });
  return results;
}

/**
 * The last step is answered: the first done branch whose `when` and `open` hold sets its variables and replies
 * (or calls its backend, whose outcome replies); its notifies and reminders go to the outbox. The flow is left
 * either way.
 */
function finish(flow: CompiledFlow, at: StepEvent, values: VariableValues, results: FlowPosition['results'], now: number, joinChat?: number): Decision {
  const { message, hasUser, context } = at;
  const branch = flow.done.find((b) => conditionsHold(b.when, values, now) && openHolds(b.open, now));
  const actions: Action[] = [];
  if (!branch) return { ruleId: `${flow.id}#done`, actions: [setFlow(null)] };
  const applied = applyAssignments(branch.set, values, { message, now }, hasUser);
  actions.push(...applied.actions, setFlow(null));
  const rendered = { message, vars: applied.values, flow: values.flow!, now, ...(results ? { flowResults: results } : {}) };
  if (branch.notifies.length > 0) actions.push(...notifyEffects(branch.notifies, rendered, context, message.chat.id));
  const reminders = reminderActions(branch.reminders, rendered, message.chat.id, hasUser ? message.from?.id : undefined, now);
  const ruleId = `${flow.id}#done`;
  // A done branch may hand the user to a person, with the flow's answers in the chat so far (and its reply).
  const sent = branch.call ? 0 : (branch.reply ? 1 : 0) + (branch.media ? 1 : 0);
  const handoff = branch.handoff ? startHandoff(message, ruleId, applied.values, context, sent) : [];
  const moderated = doneModeration(branch.moderation, message, hasUser, joinChat);
  const site = { ruleId, message, values: applied.values, flowResults: results, hasUser, context, now, moderated };
  if (branch.call) return finishWithCall(branch, [...actions, ...handoff, ...reminders], site);
  const replies: Action[] = [];
  if (branch.reply) replies.push(sendText(message.chat.id, render(branch.reply, rendered)));
  if (branch.media) replies.push(sendMediaAction(message.chat.id, branch.media, rendered, {}, undefined));
  actions.push(...moderateAround(replies, moderated.moderation, moderated.target, now));
  return { ruleId, actions: [...actions, ...handoff, ...reminders] };
}

/**
 * A done branch's moderation and whom it acts on: the flow's user in the flow's chat, or, in a flow a join request
 * started, in the group they asked to join (where a reply sent in private cannot be pinned).
 */
function doneModeration(moderation: CompiledModeration | null, message: Message, hasUser: boolean, joinChat: number | undefined): DoneModeration {
  const target = { chatId: joinChat ?? message.chat.id, messageId: 0, userId: hasUser ? message.from?.id : undefined };
  return { moderation: moderation && joinChat !== undefined ? { ...moderation, pin: null } : moderation, target };
}

/** The media a step sends before its question (a join flow's first too) (none on a retry: the question is asked again alone). */
export function stepMedia(step: CompiledStep, chatId: number, values: RenderValues): Action[] {
  return step.media ? [sendMediaAction(chatId, step.media, values, {}, undefined)] : [];
}

/** Whether a message cancels the flow: the cancel command (for this bot), or one of the keywords as whole words. */
function cancels(cancel: NonNullable<CompiledFlow['cancel']>, prepared: PreparedMessage): boolean {
  if (cancel.command !== null && prepared.command?.name === cancel.command) return true;
  return cancel.keywords.some((keyword) => containsKeyword(prepared.folded, keyword));
}

/** A choice answer without the punctuation and spaces around it ("Yes!" chooses yes). */
export function choiceKey(text: string, caseSensitive: boolean): string {
  return normalize(text, caseSensitive).replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '');
}

const WHOLE = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?\d+(?:[.,]\d+)?$/;

/** The value an answer gives the step; undefined when the step does not take it; a date or time it read but refuses. */
function acceptedValue(accept: CompiledAccept, prepared: PreparedMessage, now: number): StepAnswer {
  switch (accept.kind) {
    case 'date':
    case 'time':
      return prepared.command ? undefined : dateOrTimeAnswer(accept, prepared.text, now);
    case 'text':
    case 'call': {
      // A command is not an answer to a question (it is a command the bot does not answer here).
      const text = prepared.text.trim();
      return prepared.command || text === '' || text.length > MAX_VALUE_LENGTH ? undefined : text;
    }
    case 'pattern': {
      const captures = accept.pattern.captures(prepared.patternInput);
      if (!captures) return undefined;
      const value = captures.get('value') ?? captures.get(0) ?? null;
      return value === null || value.length > MAX_VALUE_LENGTH ? undefined : value;
    }
    case 'number': {
      const text = prepared.folded;
      if (!(accept.decimal ? DECIMAL : WHOLE).test(text)) return undefined;
      const n = Number(text.replace(',', '.'));
      return Number.isFinite(n) && n >= accept.min && n <= accept.max ? n : undefined;
    }
    case 'choice':
      return accept.options.get(choiceKey(prepared.text, accept.caseSensitive));
    case 'media':
      // A step that asks for a photo (a location …) takes no text.
      return undefined;
  }
}

/** The flow timed out: its timeout reply (written by the bot on its own) and the flow left. */
function timedOut(flow: CompiledFlow, position: FlowPosition, state: ConversationState, now: number, chatId: number, from?: Message['from']): Decision {
  // The template cannot read the message (check refuses such placeholders there): a stand-in carries the chat,
  // and the user when a message of theirs found the flow timed out, so the reply is in their app's language
  // (a timeout the runtime fires knows only their stored choice).
  const message = { message_id: 0, date: 0, chat: { id: chatId, type: 'private', first_name: '' }, ...(from ? { from } : {}) } as Message;
  const text = render(flow.timeout!.reply, { message, vars: variablesOf(state), flow: position.values, now });
  return { ruleId: `${flow.id}#timeout`, actions: [setFlow(null), sendText(chatId, text)] };
}

/**
 * A flow_timeout event: the timeout reply and the flow left when the user's flow is due, else nothing
 * (the user answered since the timer was set, left the flow, or a reload removed the flow or its timeout).
 */
export function decideFlowTimeout(event: FlowTimeoutEvent, ruleSet: RuleSet, state: ConversationState, now: number): Decision {
  const position = state.flow;
  if (!position) return NOTHING;
  const deadline = flowDeadline(position, ruleSet);
  if (deadline === null || now < deadline) return NOTHING;
  return timedOut(ruleSet.flows.get(position.flowId)!, position, state, now, event.chat.id);
}
