// A join request answered by questions in private: a flow whose start is `event: join_request` begins in the
// requester's private chat (the service lets an administrator bot write there while the request waits), remembering
// the group it answers for, so that a done branch's `approve` or `decline` (and any other moderation) acts there.
import type { Message } from '@grammyjs/types';
import type { Action } from './actions.js';
import { messageValues } from './answer.js';
import { askQuestion } from './ask.js';
import type { Decision } from './decide-types.js';
import { NOTHING } from './decide-types.js';
import type { JoinRequestEvent } from './events.js';
import { stepMedia } from './flows.js';
import { languageFor } from './reach.js';
import { render } from './render.js';
import type { CompiledRule, RuleSet } from './rule-set.js';
import { variablesOf, type ConversationState } from './state.js';
import { applyAssignments } from './variables.js';

/**
 * The decision for a join request whose first matching answer is a flow's start: its `set`, the flow begun in the
 * requester's private chat (any flow they were in there is left) and its first question sent there.
 */
export function startJoinFlow(rule: CompiledRule, event: JoinRequestEvent, ruleSet: RuleSet, state: ConversationState, now: number): Decision {
  const flow = ruleSet.flows.get(rule.startsFlow!);
  if (!flow) return NOTHING;
  const privateChat = event.userChatId;
  const group = { message_id: 0, date: event.date, chat: event.chat, from: event.from } as Message;
  const applied = applyAssignments(rule.set, variablesOf(state), messageValues(group, undefined, now), true);
  const first = flow.steps[0]!;
  // The questions read the requester as {{user.*}} in their private chat.
  const asked = { ...group, chat: { id: privateChat, type: 'private', first_name: event.from.first_name } } as Message;
  const values = { message: asked, vars: applied.values, flow: {}, now };
  const position = { flowId: flow.id, stepId: first.id, values: {}, lastActivity: now, joinChat: event.chat.id };
  const language = languageFor(ruleSet, event.from, applied.values);
  const actions: Action[] = [
    ...applied.actions,
    { type: 'set_flow', chatId: privateChat, flow: position },
    ...stepMedia(first, privateChat, values),
    askQuestion(flow.id, first, { chatId: privateChat, private: true, language }, render(first.ask, values)),
  ];
  return { ruleId: flow.id, actions };
}
