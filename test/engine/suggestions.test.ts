// "When unsure, ask" (`suggest:`) through decide(): the offer for a message no rule matched (its question and
// buttons in the user's language), which rules may be offered, a press that answers as the rule would, "None
// of these", stale presses, and that nothing changes without the block.
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { buttons, load, sends, User } from './suggestion-user.js';

const SUGGEST = `suggest:
  when_unmatched: true
  max: 3
  text: { en: "I'm not sure I understood. Did you mean:", de: "Ich bin nicht sicher. Meinten Sie:" }
  none: fallback
`;

const SHOP = `
languages: { default: en, supported: [en, de] }
synonyms: [[shipping, delivery, postage]]
rules:
  - id: shipping-cost
    keywords: { en: ["shipping costs"], de: [versandkosten] }
    label: { en: "Shipping costs", de: "Versandkosten" }
    examples: ["how much is shipping", "Was kostet der Versand?"]
    reply: { en: "Shipping is 4.90.", de: "Der Versand kostet 4,90." }
  - id: shipping-time
    keywords: { en: ["delivery time"], de: [lieferzeit] }
    examples: ["how long does shipping take"]
    reply: "2 to 4 days. You asked: {{text}}"
  - id: returns
    keywords: [returns, "send back"]
    examples: ["how do I return an item"]
    reply: "Returns are free."
  - id: delete-account
    keywords: ["delete my account"]
    examples: ["I want my account and shipping data deleted"]
    suggest: false
    reply: "Deleted."
  - id: fallback
    fallback: true
    reply: { en: "Sorry?", de: "Wie bitte?" }
`;

describe('suggestions for a message no rule matched', () => {
  it("asks with the closest rules as buttons, labelled in the user's language (label, else the first example), None of these last", async () => {
    const ruleSet = await load(SUGGEST + SHOP);
    const en = new User(ruleSet).say('what does shipping cost me');
    expect(en.ruleId).toBe(null);
    expect(en.suggested).toEqual(['shipping-cost', 'shipping-time']);
    expect(sends(en)[0]!.text).toBe("I'm not sure I understood. Did you mean:");
    expect(buttons(en)).toEqual([
      [['Shipping costs', '#suggest:b:0']],
      [['how long does shipping take', '#suggest:b:1']],
      [['None of these', '#suggest:b:none']],
    ]);
    const de = new User(ruleSet, 'de').say('Versand kosten?');
    expect(sends(de)[0]!.text).toBe('Ich bin nicht sicher. Meinten Sie:');
    expect(buttons(de)[0]).toEqual([['Versandkosten', '#suggest:b:0']]);
    expect(buttons(de).at(-1)).toEqual([['Nichts davon', '#suggest:b:none']]);
  });

  it('finds rules through typos (trigrams) and synonyms, and never offers a rule with suggest: false', async () => {
    const ruleSet = await load(SUGGEST + SHOP);
    expect(new User(ruleSet).say('retrns?').suggested).toEqual(['returns']);
    expect(new User(ruleSet).say('postage prices').suggested).toEqual(['shipping-cost', 'shipping-time']);
    const account = new User(ruleSet).say('my account data');
    expect(account.suggested ?? []).not.toContain('delete-account');
  });

  it('answers a message close to nothing, a command, or a message a rule matches as before', async () => {
    const ruleSet = await load(SUGGEST + SHOP);
    expect(new User(ruleSet).say('tell me a joke').ruleId).toBe('fallback');
    expect(new User(ruleSet).say('/shipping').ruleId).toBe('fallback');
    expect(new User(ruleSet).say('what are the shipping costs').ruleId).toBe('shipping-cost');
  });

  it('changes nothing without the suggest block', async () => {
    const ruleSet = await load(SHOP);
    const decision = new User(ruleSet).say('what does shipping cost me');
    expect(decision.ruleId).toBe('fallback');
    expect(decision.suggested).toBeUndefined();
    expect(sends(decision)[0]!.text).toBe('Sorry?');
  });

  it('offers nothing in a group when no fallback would answer', async () => {
    const ruleSet = await load(SUGGEST + SHOP.replace(/ {2}- id: fallback[\s\S]*$/, ''));
    expect(new User(ruleSet, 'en', { chatType: 'group' }).say('what does shipping cost me').actions).toEqual([]);
    expect(new User(ruleSet).say('what does shipping cost me').suggested).toEqual(['shipping-cost', 'shipping-time']);
  });
});

describe('a press of a suggestion', () => {
  it('answers exactly as the rule would have answered the message, once', async () => {
    const ruleSet = await load(SUGGEST + SHOP);
    const user = new User(ruleSet);
    user.say('what about shipping, how long');
    const pressed = user.press('#suggest:b:0');
    expect(pressed.ruleId).toBe('shipping-time');
    expect(pressed.via).toEqual({ kind: 'suggested', text: 'what about shipping, how long' });
    expect(pressed.actions[0]).toEqual({ type: 'answer_callback', callbackQueryId: 'cq' });
    expect(sends(pressed).map((s) => [s.chatId, s.text])).toEqual([[42, '2 to 4 days. You asked: what about shipping, how long']]);
    // The offer is forgotten: pressing again only stops the button spinning.
    expect(user.press('#suggest:b:0')).toEqual({ ruleId: null, actions: [{ type: 'answer_callback', callbackQueryId: 'cq' }] });
  });

  it('None of these gets the fallback; an older offer, or another user, gets nothing', async () => {
    const ruleSet = await load(SUGGEST + SHOP);
    const user = new User(ruleSet, 'de');
    user.say('Versand kosten?');
    const none = user.press('#suggest:b:none');
    expect(none.ruleId).toBe('fallback');
    expect(none.via).toEqual({ kind: 'suggested', text: 'Versand kosten?', declined: true });
    expect(sends(none)[0]!.text).toBe('Wie bitte?');
    const later = new User(ruleSet);
    later.say('what does shipping cost me');
    later.say('costs of postage');
    expect(later.press('#suggest:b:0').ruleId).toBe(null);
    // Another user's press reaches the bot with that user's state, which holds no offer.
    expect(new User(ruleSet).press('#suggest:c:0', 99).ruleId).toBe(null);
    expect(later.press('#suggest:c:0').ruleId).toBe('shipping-cost');
  });
});

describe('the suggest block and labels are checked', () => {
  const problems = (yaml: string) => withRuleDir({ 'bot.yaml': yaml }, async (dir) => (await loadRules(dir)).problems.map((p) => p.format('bot.yaml')));

  it('a label per language needs the languages block; suggest.max is at most 10', async () => {
    expect(await problems('rules:\n  - id: a\n    keywords: [a]\n    label: { en: A }\n    reply: a\n')).toEqual([
      expect.stringMatching(/^bot\.yaml:4:12: the label of rule 'a' is given per language, but no file declares the languages/),
    ]);
    expect(await problems('suggest: { max: 11 }\nrules:\n  - id: a\n    keywords: [a]\n    reply: a\n')).toEqual([
      'bot.yaml:1:17: suggest.max must be at most 10, not number 11',
    ]);
  });
});

describe('check warns about suggestions', () => {
  const problems = (yaml: string) => withRuleDir({ 'bot.yaml': yaml }, async (dir) => (await loadRules(dir)).problems.map((p) => p.format('bot.yaml')));

  it('about an example another rule outscores, and about two rules with one label', async () => {
    const yaml = `${SUGGEST}languages: { default: en, supported: [en, de] }
rules:
  - id: shipping
    keywords: [shipping]
    label: { en: Shipping, de: Versand }
    examples: ["shipping costs", "how to send it back"]
    reply: s
  - id: returns
    keywords: [returns]
    label: { en: Returns, de: Versand }
    examples: ["send it back", "how to send back"]
    reply: r
`;
    // An example no keyword catches is not warned about on its own: it is suggested (or outscored, below).
    expect(await problems(yaml)).toEqual([
      expect.stringMatching(
        /^bot\.yaml:11:34: warning: example "how to send it back" of rule 'shipping' is closer to rule 'returns' \(.*\): when unsure, 'returns' is suggested before it/,
      ),
      expect.stringMatching(
        /^bot\.yaml:15:12: warning: rule 'returns' is suggested as "Versand" in 'de', like rule 'shipping' \(.*\): users cannot tell the two buttons apart/,
      ),
    ]);
    // Without the suggest block, neither is said, and each example no keyword catches is.
    expect(await problems(yaml.replace(SUGGEST, ''))).toEqual([
      `bot.yaml:6:34: warning: example "how to send it back" does not reach rule 'shipping': no rule matches it`,
      `bot.yaml:11:16: warning: example "send it back" does not reach rule 'returns': no rule matches it`,
      `bot.yaml:11:32: warning: example "how to send back" does not reach rule 'returns': no rule matches it`,
    ]);
  });
});
