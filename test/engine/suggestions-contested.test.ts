// "When unsure, ask" for a message a rule matched by a broad keyword while it is closer to another rule
// (`suggest: { when_contested: true }`), through decide(): the offer (the matched rule among the others, best
// first), a press that answers as the rule pressed, and where it does not ask: a message the matched rule is
// closest to, a rule that may not be suggested, the hand-off's staff group, and without the setting.
import { describe, expect, it } from 'vitest';
import { explain } from '../../src/pipeline/explanation.js';
import { explanationLines } from '../../src/pipeline/explanation-text.js';
import { buttons, load, sends, User } from './suggestion-user.js';

const SUGGEST = 'suggest: { when_unmatched: true, when_contested: true, max: 3, none: fallback }\n';

const SHOP = `
rules:
  - id: store-location
    keywords: [store]
    examples: ["where is your store", "store address and opening hours"]
    reply: "Main Street 1, 9 to 6."
  - id: returns
    keywords: [return]
    examples: ["can I give back an order for a refund", "refund for items I give back"]
    reply: "Returns are free. You asked: {{text}}"
  - id: delete-account
    keywords: ["delete my account"]
    examples: ["delete my account and refund what I paid"]
    suggest: false
    reply: "Deleted."
  - id: fallback
    fallback: true
    reply: "Sorry?"
`;

/** A broad keyword of the first rule in a question about the second. */
const CONTESTED = 'can I give back my order at the store for a refund?';

describe('a keyword match closer to another rule (when_contested)', () => {
  it('asks, with the closer rule first and the matched rule among the suggestions', async () => {
    const ruleSet = await load(SUGGEST + SHOP);
    const decision = new User(ruleSet).say(CONTESTED);
    expect(decision.ruleId).toBe(null);
    expect(decision.suggested).toEqual(['returns', 'store-location']);
    expect(decision.contested).toBe('store-location');
    expect(buttons(decision)).toEqual([
      [['can I give back an order for a refund', '#suggest:b:0']],
      [['where is your store', '#suggest:b:1']],
      [['None of these', '#suggest:b:none']],
    ]);
    // The update's explanation (log line, the sandbox's "why") names the rule whose keyword matched.
    const explanation = explain(decision, [], ruleSet, 1);
    expect(explanation).toMatchObject({ rule: null, suggested: ['returns', 'store-location'], contested: 'store-location' });
    expect(explanationLines(explanation)[0]).toBe("rule 'store-location' matched a keyword, but other rules are closer; suggested: returns, store-location");
  });

  it('a press answers as the rule pressed would have, the matched one included', async () => {
    const ruleSet = await load(SUGGEST + SHOP);
    const user = new User(ruleSet);
    user.say(CONTESTED);
    const pressed = user.press('#suggest:b:0');
    expect(pressed.ruleId).toBe('returns');
    expect(sends(pressed).map((send) => send.text)).toEqual([`Returns are free. You asked: ${CONTESTED}`]);
    const other = new User(ruleSet);
    other.say(CONTESTED);
    expect(other.press('#suggest:b:1').ruleId).toBe('store-location');
  });

  it('answers as before when the matched rule is the closest, or may not be suggested', async () => {
    const ruleSet = await load(SUGGEST + SHOP);
    expect(new User(ruleSet).say('where is the store?').ruleId).toBe('store-location');
    expect(new User(ruleSet).say('please delete my account and refund what I paid').ruleId).toBe('delete-account');
  });

  it("answers as before among the hand-off's staff, and without the setting", async () => {
    const staff = new User(
      await load(SUGGEST + SHOP),
      'en',
      { chatType: 'supergroup', chatId: -100777 },
      {
        handoff: { chatId: -100777, idleMs: null, endWords: new Set(['done']) },
      },
    );
    expect(staff.say(CONTESTED).ruleId).toBe('store-location');
    const unmatchedOnly = await load(SUGGEST.replace('when_contested: true, ', '') + SHOP);
    expect(new User(unmatchedOnly).say(CONTESTED).ruleId).toBe('store-location');
  });
});
