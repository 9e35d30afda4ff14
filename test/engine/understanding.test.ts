// Understanding more of what users write (issue 36): typos corrected in first-match order, ties between
// words of one rule or of one language, other forms of words (`forms: auto`), synonyms that are phrases,
// `all` triggers, and how a match was made (`via` in the decision).
import type { Message } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { decide, type Decision } from '../../src/engine/decide.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { EMPTY_STATE } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent } from './messages.js';

async function load(yaml: string): Promise<RuleSet> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => {
    const outcome = await loadRules(dir);
    if (!outcome.ruleSet) throw new Error(outcome.problems.map((p) => p.format('bot.yaml')).join('\n'));
    return outcome.ruleSet;
  });
}

async function warnings(yaml: string): Promise<string[]> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => (await loadRules(dir)).problems.map((p) => p.format('bot.yaml')));
}

function decideText(ruleSet: RuleSet, text: string, language?: string): Decision {
  const msg = message(text);
  const withLanguage = language ? ({ ...msg, from: { ...msg.from!, language_code: language } } as Message) : msg;
  return decide(messageEvent(withLanguage), ruleSet, EMPTY_STATE, { botUsername: 'shop_bot' });
}
const winner = (ruleSet: RuleSet, text: string, language?: string) => decideText(ruleSet, text, language).ruleId;

const SHOP = `
fuzzy: auto
rules:
  - id: change-address
    keywords: ["change my address", "new address"]
    reply: "Change it under Account."
  - id: student-discount
    keywords: ["student discount"]
    reply: "10% with a student card."
  - id: shop-address
    keywords: [address, location]
    reply: "Main Street 1."
  - id: promo
    keywords: [discount, voucher]
    reply: "Codes go in the basket."
  - id: fallback
    fallback: true
    reply: "Sorry?"
`;

describe('typo correction keeps first-match order', () => {
  it('a rule reached after correction answers in its place, before a later rule that matches exactly', async () => {
    const ruleSet = await load(SHOP);
    expect(winner(ruleSet, 'chnage my address')).toBe('change-address');
    expect(winner(ruleSet, 'studnet discount please')).toBe('student-discount');
    // The later rule still answers what the earlier one does not reach, typo or not.
    expect(winner(ruleSet, 'what is your address')).toBe('shop-address');
    expect(winner(ruleSet, 'any discuont?')).toBe('promo');
  });

  it('an exact match beats a corrected one only at the same position: an earlier exact match keeps answering', async () => {
    const ruleSet = await load(`
fuzzy: auto
rules:
  - id: address
    keywords: [address]
    reply: a
  - id: change
    keywords: ["change my address"]
    reply: c
`);
    expect(winner(ruleSet, 'chnage my address')).toBe('address');
  });

  it('the decision says how the rule was reached: the words corrected, or nothing for an exact match', async () => {
    const ruleSet = await load(SHOP);
    expect(decideText(ruleSet, 'chnage my address').via).toEqual({ kind: 'corrected', corrections: [{ from: 'chnage', to: 'change' }] });
    expect(decideText(ruleSet, 'change my address').via).toBeUndefined();
    expect(decideText(ruleSet, 'hello there').via).toBeUndefined();
  });
});

describe('a typo as close to several words', () => {
  const ONE_RULE = `
languages: { default: en, supported: [en, de] }
fuzzy: auto
rules:
  - id: address
    keywords: { en: [address], de: [adresse] }
    reply: { en: "Main Street 1.", de: "Hauptstraße 1." }
  - id: fallback
    fallback: true
    reply: "?"
`;
  it('reaches the rule when all those words lead to it (its keywords in two languages)', async () => {
    const ruleSet = await load(ONE_RULE);
    // "adress" is one edit from both "address" and "adresse".
    expect(winner(ruleSet, 'your adress?')).toBe('address');
    expect(winner(ruleSet, 'eure adress?', 'de')).toBe('address');
  });

  const TWO_RULES = `
languages: { default: en, supported: [en, de] }
fuzzy: auto
rules:
  - id: address-en
    keywords: { en: [address] }
    reply: "Main Street 1."
  - id: address-de
    keywords: { de: [adresse] }
    reply: "Hauptstraße 1."
  - id: fallback
    fallback: true
    reply: "?"
`;
  it("between two rules, is broken by the user's language when the words are in different languages", async () => {
    const ruleSet = await load(TWO_RULES);
    expect(winner(ruleSet, 'your adress?', 'en')).toBe('address-en');
    expect(winner(ruleSet, 'eure adress?', 'de')).toBe('address-de');
  });

  it('between two rules in no one language, goes to neither', async () => {
    const ruleSet = await load(`
fuzzy: auto
rules:
  - id: subscription
    keywords: [subscription]
    reply: a
  - id: subscriptions
    keywords: [subscriptions]
    reply: b
  - id: fallback
    fallback: true
    reply: "?"
`);
    expect(winner(ruleSet, 'my subscriptionz')).toBe('fallback');
  });
});

describe('forms: auto', () => {
  const FORMS = `
languages: { default: en, supported: [en, de] }
forms: auto
rules:
  - id: order
    keywords: { en: [order], de: [Bestellung] }
    reply: { en: "Your order ships today.", de: "Ihre Bestellung geht heute raus." }
  - id: hi
    text: hi
    reply: Hello
  - id: exact
    keywords: [news]
    forms: off
    reply: News
  - id: fallback
    fallback: true
    reply: "?"
`;
  it('matches other forms of a word, in English and in German', async () => {
    const ruleSet = await load(FORMS);
    for (const text of ['my orders', 'I ordered a lamp', 'ordering', 'Wo sind meine Bestellungen?', 'Bestellung 12'])
      expect(winner(ruleSet, text)).toBe('order');
    expect(decideText(ruleSet, 'my orders').via).toEqual({ kind: 'forms', language: 'en' });
    expect(decideText(ruleSet, 'my order').via).toEqual({ kind: 'forms', language: 'en' });
  });

  it('is light: short words are kept, a word is not taken for a different one, and forms: off stays as written', async () => {
    const ruleSet = await load(FORMS);
    expect(winner(ruleSet, 'his')).toBe('fallback');
    expect(winner(ruleSet, 'ordinary')).toBe('fallback');
    expect(winner(ruleSet, 'the news')).toBe('exact');
    expect(winner(ruleSet, 'newsy')).toBe('fallback');
  });

  it('does not cut a word to a stem of fewer than three letters ("ons" is not "on")', async () => {
    const ruleSet = await load(
      'forms: auto\nrules:\n  - id: carry\n    keywords: [ons, uses]\n    reply: c\n  - id: fallback\n    fallback: true\n    reply: "?"\n',
    );
    expect(winner(ruleSet, 'turn it on')).toBe('fallback');
    expect(winner(ruleSet, 'carry ons')).toBe('carry');
    // A stem of three letters or more still stands for its forms.
    expect(winner(ruleSet, 'how do I use it')).toBe('carry');
  });

  it('applies to text triggers and to synonyms, and works with typos', async () => {
    const ruleSet = await load(`
forms: auto
fuzzy: auto
synonyms: [[shipping, delivery]]
rules:
  - id: shipping
    keywords: [shipping]
    reply: ship
  - id: thanks
    text: thank you
    reply: welcome
  - id: fallback
    fallback: true
    reply: "?"
`);
    expect(winner(ruleSet, 'deliveries to Spain?')).toBe('shipping');
    expect(winner(ruleSet, 'shipped yet?')).toBe('shipping');
    expect(winner(ruleSet, 'delivry costs')).toBe('shipping');
    // A text trigger is still the whole message: other forms of its words, nothing more.
    expect(winner(ruleSet, 'thanking you')).toBe('thanks');
    expect(winner(ruleSet, 'Thank you!')).toBe('fallback');
  });

  it('no typo warning for two forms of one word in two rules', async () => {
    const rules = (forms: string) => `
fuzzy: auto
forms: ${forms}
rules:
  - id: refund
    keywords: [refund]
    reply: a
  - id: refunds
    keywords: [refunds]
    reply: b
`;
    expect(await warnings(rules('auto'))).toEqual([]);
    expect(await warnings(rules('off'))).toEqual([expect.stringContaining("'refunds' of rule 'refunds' is within a typo of 'refund'")]);
  });

  it('is warned about where it can do nothing', async () => {
    expect(await warnings('rules:\n  - id: p\n    pattern: "^order"\n    forms: auto\n    reply: p\n')).toEqual([
      "bot.yaml:4:12: warning: matching other forms of words is for text, keywords and all triggers; rule 'p' has a pattern trigger, so it never applies: remove `forms`",
    ]);
  });
});

describe('synonyms with phrases', () => {
  it('a phrase or a hyphenated word stands for its group, in messages and in triggers', async () => {
    const ruleSet = await load(`
synonyms:
  - [giftcard, "gift card", gift-card]
  - [email, e-mail]
rules:
  - id: giftcard
    keywords: [gift card]
    reply: g
  - id: email
    keywords: [email]
    reply: e
  - id: card
    keywords: [card]
    reply: c
  - id: fallback
    fallback: true
    reply: "?"
`);
    for (const text of ['a giftcard please', 'a Gift  Card please', 'gift-card?']) expect(winner(ruleSet, text)).toBe('giftcard');
    for (const text of ['your e-mail?', 'Email address', 'E-Mail']) expect(winner(ruleSet, text)).toBe('email');
    // A group's phrase is one word: "card" alone does not answer it, and the phrase does not answer "card".
    expect(winner(ruleSet, 'my card')).toBe('card');
    expect(winner(ruleSet, 'my gift card')).toBe('giftcard');
  });
});

describe('all: every word, any order', () => {
  const ALL = `
languages: { default: en, supported: [en, de] }
fuzzy: auto
forms: auto
synonyms: [[address, location]]
rules:
  - id: change-address
    keywords: [relocate]
    all: { en: [change, address], de: [adresse, ändern] }
    reply: { en: "Under Account.", de: "Unter Konto." }
  - id: address
    keywords: [address]
    reply: "Main Street 1."
  - id: fallback
    fallback: true
    reply: "?"
`;
  it('needs every word, in any order, anywhere; the keywords next to it answer too', async () => {
    const ruleSet = await load(ALL);
    expect(winner(ruleSet, 'I need to change my address')).toBe('change-address');
    expect(winner(ruleSet, 'address change')).toBe('change-address');
    expect(winner(ruleSet, 'your address')).toBe('address');
    expect(winner(ruleSet, 'change please')).toBe('fallback');
    expect(winner(ruleSet, 'we relocate')).toBe('change-address');
    expect(winner(ruleSet, 'Adresse ändern bitte')).toBe('change-address');
  });

  it('with forms, synonyms and typos applied', async () => {
    const ruleSet = await load(ALL);
    expect(winner(ruleSet, 'changing addresses')).toBe('change-address');
    expect(winner(ruleSet, 'change of location')).toBe('change-address');
    expect(winner(ruleSet, 'chnage adress')).toBe('change-address');
  });

  it('is refused with a word without letters, and counts as one trigger with keywords', async () => {
    expect(await warnings('rules:\n  - id: a\n    all: [change, "!"]\n    reply: a\n')).toEqual([
      'bot.yaml:3:19: "!" in the `all` of rule \'a\' has no letter or digit, so it has no word edges to match',
    ]);
    expect(await warnings('rules:\n  - id: a\n    all: [change]\n    text: change\n    reply: a\n')).toEqual([
      "bot.yaml:3:5: rule 'a' has two triggers (text, all): keep one",
    ]);
    expect(await warnings('rules:\n  - id: a\n    all: [change]\n    keywords: [move]\n    reply: a\n')).toEqual([]);
  });
});
