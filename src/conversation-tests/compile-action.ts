// Compiles what a test step does (say, send, press, wait, join, leave, request_join) from its YAML (already valid
// against the schema), checking what the schema cannot: `reply`, `times` and `topic_of` only where they mean
// something, users who exist, membership steps only in groups.
import { durationMs } from '../engine/compile-flows.js';
import type { StepAction, TestChat, TestHandoff, TestUser } from './model.js';
import { sendAction } from './user-media.js';

type Raw = Record<string, unknown>;
type Report = (field: string, message: string) => void;

/** What the step does; undefined when it has a problem (reported at the field). */
export function compileAction(step: Raw, users: readonly TestUser[], chat: TestChat, report: Report): StepAction | undefined {
  const times = (step.times as number | undefined) ?? 1;
  if (step.times !== undefined && typeof step.say !== 'string' && step.send === undefined) {
    report('times', '`times` goes with `say` or `send` (the same message sent that many times)');
    return undefined;
  }
  if (typeof step.say === 'string') {
    const topicOf = step.topic_of === undefined ? undefined : users.find((u) => u.key === step.topic_of);
    return { kind: 'say', text: step.say, reply: step.reply === true, times, ...(topicOf ? { topicOf } : {}) };
  }
  if (step.reply !== undefined) report('reply', '`reply` goes with `say`');
  if (step.send !== undefined) return { ...sendAction(step.send as Raw), times };
  if (step.press !== undefined) {
    const press = step.press as string | Raw;
    if (typeof press === 'string') return { kind: 'press', by: 'text', value: press };
    if (press.data !== undefined) return { kind: 'press', by: 'data', value: press.data as string };
    if (press.suggestion !== undefined) return { kind: 'press', by: 'suggestion', value: press.suggestion as string };
    return { kind: 'press', by: 'text', value: press.text as string };
  }
  if (typeof step.wait === 'string') {
    const ms = durationMs(step.wait);
    if (ms === 0) report('wait', 'wait must be more than 0');
    return ms === 0 ? undefined : { kind: 'wait', ms, source: step.wait };
  }
  return membershipAction(step, users, chat, report) ?? { kind: 'none' };
}

/** `join`, `leave` and `request_join`: users of the test, in a group; null when the step is none of them. */
function membershipAction(step: Raw, users: readonly TestUser[], chat: TestChat, report: Report): StepAction | undefined | null {
  for (const kind of ['join', 'leave', 'request_join'] as const) {
    if (step[kind] === undefined) continue;
    if (chat.type === 'private') {
      const what = { join: 'join groups', leave: 'leave groups', request_join: 'ask to join groups' }[kind];
      report(kind, `users ${what}, and chat '${chat.key}' is private: name the group with \`in:\``);
      return undefined;
    }
    const keys = ([] as string[]).concat(step[kind] as string | string[]);
    const members = keys.map((key) => users.find((u) => u.key === key));
    const unknown = keys.filter((_, n) => !members[n]);
    if (unknown.length > 0) {
      report(kind, `no user ${unknown.map((k) => `'${k}'`).join(', ')} in this test (users: ${users.map((u) => u.key).join(', ')})`);
      return undefined;
    }
    if (kind === 'request_join') return { kind, user: members[0]! };
    return { kind, users: members as TestUser[] };
  }
  return null;
}

/** `topic_of` goes with `say` in the hand-off's staff group, when it has topics, and names a user. */
export function topicOfHolds(step: Raw, action: StepAction, chat: TestChat, handoff: TestHandoff | null | undefined, report: Report): boolean {
  if (step.topic_of === undefined) return true;
  if (action.kind !== 'say') report('topic_of', '`topic_of` goes with `say`');
  else if (!handoff || handoff.chat !== chat || !chat.forum)
    report('topic_of', `\`topic_of\` writes in a customer's topic: the step must be \`in\` the hand-off's staff group, a forum (\`forum: true\`)`);
  else if (!action.topicOf) report('topic_of', `no user '${String(step.topic_of)}' in this test`);
  else return true;
  return false;
}
