// Flood control in the pure engine: the first message over `limits.incoming` gets the `event: flooding` rule,
// which may delete that message and mute its sender; the dates kept are the messages' own, so a backlog
// handled late is judged by when it was written.
import { describe, expect, it } from 'vitest';
import { compileRulesCollecting } from '../../src/engine/compile.js';
import { decide } from '../../src/engine/decide.js';
import { applyStateChanges, EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { message, messageEvent } from './messages.js';

const NOW = 1_700_000_000_000;
const RULES: Rule[] = [
  { id: 'flood', event: 'flooding', chat_types: ['supergroup'], delete: true, restrict: { for: '10m' }, reply: '{{user.first_name}} is muted for 10 minutes.' },
  { id: 'hi', text: 'hi', reply: 'Hello.' },
];

function compiled() {
  const result = compileRulesCollecting(RULES, undefined, [], [], undefined, { incomingLimit: { perUser: 2, perSeconds: 60 } });
  expect(result.problems).toEqual([]);
  return result.ruleSet!;
}

describe('flood control', () => {
  it('answers two, then deletes the third and mutes its sender, then stays silent', () => {
    const ruleSet = compiled();
    let state: ConversationState = EMPTY_STATE;
    const kinds: string[][] = [];
    for (let i = 0; i < 4; i++) {
      const decision = decide(messageEvent(message('hi', { chatType: 'supergroup', chatId: -1001 })), ruleSet, state, { botUsername: 'b', now: () => NOW });
      state = applyStateChanges(state, decision.actions);
      kinds.push(decision.actions.filter((a) => a.type !== 'set_state').map((a) => (a.type === 'moderate' ? a.method : a.type)));
    }
    expect(kinds).toEqual([['send_message'], ['send_message'], ['deletemessage', 'restrictchatmember', 'send_message'], []]);
  });

  it('judges by the dates the messages carry: two written a minute apart are both answered, however late they are handled', () => {
    const ruleSet = compiled();
    let state: ConversationState = EMPTY_STATE;
    const replies: number[] = [];
    for (const date of [1_000, 1_001, 1_070, 1_071]) {
      const decision = decide(messageEvent({ ...message('hi', { chatType: 'supergroup' }), date }), ruleSet, state, { botUsername: 'b', now: () => NOW });
      state = applyStateChanges(state, decision.actions);
      replies.push(decision.actions.filter((a) => a.type === 'send_message').length);
    }
    expect(replies).toEqual([1, 1, 1, 1]);
  });
});
