// Why an answer: from the engine's decision and the update's state changes, on the demo's own rules — the rule and
// where it is written, how it matched (command, keyword found, fallback, a flow's start and steps), what changed.
import { relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileRules } from '../../src/engine/compile.js';
import { decide } from '../../src/engine/decide.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { explain } from '../../src/pipeline/explanation.js';
import { explanationLines } from '../../src/pipeline/explanation-text.js';
import { splitStateChanges } from '../../src/pipeline/state-changes.js';
import { loadRuleSet } from '../../src/rules/load.js';
import { message, messageEvent } from '../engine/messages.js';

const root = new URL('../..', import.meta.url).pathname;
let demo: RuleSet;
beforeAll(async () => {
  demo = await loadRuleSet(`${root}rules`);
});

/** The lines of why `text` got its answer in `state`, with the rule files shown relative to the repository. */
function why(text: string, state: ConversationState = EMPTY_STATE, ruleSet = demo): string[] {
  const decision = decide(messageEvent(message(text)), ruleSet, state, { botUsername: 'shop_bot', random: () => 0, now: () => 1_000 });
  const { changes } = splitStateChanges(decision.actions);
  return explanationLines(explain(decision, changes, ruleSet, 0.42), (file) => relative(root, file));
}

describe('the why of an answer', () => {
  it('names the rule, where it is written and how it matched: a command, a keyword, the fallback', () => {
    expect(why('/start')).toEqual(["rule 'start' (rules/10-commands.yaml:17) answered: its command", 'changed: nothing', 'backend calls: none · took 0.4 ms']);
    expect(why('I want my money back')[0]).toBe(`rule 'refund' (rules/20-conversation.yaml:55) answered: keyword "money back"`);
    expect(why('my name is Ada')).toEqual([
      "rule 'remember-name' (rules/20-conversation.yaml:12) answered: its pattern",
      'changed: user.name = "Ada"',
      'backend calls: none · took 0.4 ms',
    ]);
    expect(why('what is the meaning of life')[0]).toBe("no rule matched; the fallback answered (rule 'fallback', rules/99-fallback.yaml:4)");
  });

  it('says which typo was corrected before a fuzzy rule matched, and the keyword it then found', () => {
    expect(why('shiping costs?')[0]).toBe(
      `rule 'shipping' (rules/20-conversation.yaml:109) answered: corrected typo shiping → shipping, then keyword "shipping"`,
    );
    // Written correctly, no correction is told.
    expect(why('shipping costs?')[0]).toBe(`rule 'shipping' (rules/20-conversation.yaml:109) answered: keyword "shipping"`);
  });

  it('says what a flow did: started by its trigger, a step that took the answer, one that asked again', () => {
    expect(why('/book').slice(0, 2)).toEqual(["flow 'booking' (rules/30-booking.yaml:8) started: its command", 'changed: flow at booking, step date']);
    const atDate: ConversationState = { ...EMPTY_STATE, flow: { flowId: 'booking', stepId: 'date', values: {}, lastActivity: 900 } };
    expect(why('Friday', atDate).slice(0, 2)).toEqual([
      "step 'date' of flow 'booking' (rules/30-booking.yaml:8) took the answer",
      'changed: flow at booking, step size',
    ]);
    expect(why('whenever', atDate)[0]).toBe("step 'date' of flow 'booking' (rules/30-booking.yaml:8) did not accept the answer and asked again");
  });

  it('a message no rule answers, without a fallback: nothing answered', () => {
    const rules = compileRules([{ id: 'ping', text: 'ping', reply: 'pong' }]);
    expect(why('hello', EMPTY_STATE, rules)[0]).toBe('no rule matched; nothing answered');
  });
});
