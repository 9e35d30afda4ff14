// Flows that ask a backend, at decide time: a step whose answer a backend accepts pends on that call (2xx: the
// answer is taken and the JSON kept with the step; anything else: the step is asked again), and a done branch
// with a `call` leaves the flow at once and pends on its call, whose `on` branch then replies. Both are pure:
// the caller makes the request and continues the decision with its result.
import type { Message } from '@grammyjs/types';
import type { Action, JsonValue } from './actions.js';
import { sendMediaAction, sendText } from './answer.js';
import { succeeded } from './backend-calls.js';
import { renderRequest, type CompiledRequest } from './compile-calls.js';
import type { Decision, DecideContext } from './decide-types.js';
import { notifyEffects } from './notifies.js';
import { render, type RenderValues } from './render.js';
import { pickBranch } from './rule-calls.js';
import type { CompiledModeration } from './compile-moderation.js';
import { moderateAround, type ModerationTarget } from './moderation.js';
import type { CompiledDoneBranch } from './rule-set.js';
import { applyAssignments, type VariableValues } from './variables.js';
import { startHandoff } from './handoff.js';

/** The largest JSON answer a step keeps (as JSON text): the flow's position is stored with every answer. */
export const MAX_STEP_RESULT_CHARS = 16 * 1024;

/** A step's answer checked by a backend: `accepted` with the JSON on a 2xx, else `refused` (the step is asked again). */
export function checkAnswerWithBackend(
  request: CompiledRequest,
  values: RenderValues,
  ruleId: string,
  accepted: (body: JsonValue | undefined) => Decision,
  refused: () => Decision,
): Decision {
  return {
    ruleId,
    actions: [],
    call: { request: renderRequest(request, values), resume: (result) => (succeeded(result) ? accepted(keptResult(result.body)) : refused()) },
  };
}

/** The JSON a step keeps of an answer: all of it, unless it is larger than {@link MAX_STEP_RESULT_CHARS}. */
function keptResult(body: JsonValue | undefined): JsonValue | undefined {
  if (body === undefined) return undefined;
  return JSON.stringify(body).length <= MAX_STEP_RESULT_CHARS ? body : undefined;
}

/** What the end of a flow with a calling done branch knows: the message, the values after the branch's `set`, the chat. */
export interface DoneSite {
  readonly ruleId: string;
  readonly message: Message;
  /** The variables after the done branch's `set`, with the flow's answers. */
  readonly values: VariableValues;
  readonly flowResults: Readonly<Record<string, JsonValue>> | undefined;
  readonly hasUser: boolean;
  readonly context: DecideContext;
  /** The decision's clock (ms since the epoch): {{now.*}} and dates in the branches' texts. */
  readonly now: number;
  /** The done branch's moderation, around the reply of the branch its call picks (whatever the outcome). */
  readonly moderated: DoneModeration;
}

/** A done branch's moderation and whom it acts on. */
export interface DoneModeration {
  readonly moderation: CompiledModeration | null;
  readonly target: ModerationTarget;
}

/** The flow's end through a backend: `before` (the branch's `set`, leaving the flow), then the call; its `on` branch replies. */
export function finishWithCall(branch: CompiledDoneBranch, before: readonly Action[], site: DoneSite): Decision {
  const call = branch.call!;
  const rendered: RenderValues = { message: site.message, vars: site.values, flow: site.values.flow ?? {}, now: site.now };
  if (site.flowResults) rendered.flowResults = site.flowResults;
  const chatId = site.message.chat.id;
  return {
    ruleId: site.ruleId,
    actions: before,
    call: {
      request: renderRequest(call.request, rendered),
      resume: (result) => {
        const chosen = pickBranch(call.on, result);
        const { moderation, target } = site.moderated;
        if (!chosen) return { ruleId: site.ruleId, actions: moderateAround([], moderation, target, site.now) };
        const base: RenderValues = { ...rendered, result };
        const applied = applyAssignments(chosen.set, site.values, base, site.hasUser);
        const values: RenderValues = { ...base, vars: applied.values };
        const replies: Action[] = [];
        if (chosen.reply) replies.push(sendText(chatId, render(chosen.reply, values)));
        if (chosen.media) replies.push(sendMediaAction(chatId, chosen.media, values, {}, undefined));
        const actions: Action[] = [...applied.actions, ...moderateAround(replies, moderation, target, site.now)];
        // After the branch's reply, which is part of the chat so far.
        if (chosen.handoff)
          actions.push(...startHandoff(site.message, site.ruleId, applied.values, site.context, (chosen.reply ? 1 : 0) + (chosen.media ? 1 : 0)));
        if (chosen.notifies.length > 0) actions.push(...notifyEffects(chosen.notifies, values, site.context, chatId));
        return { ruleId: site.ruleId, actions };
      },
    },
  };
}
