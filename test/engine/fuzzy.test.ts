// Typo tolerance and synonyms through rule files and decide: bounded edits by word length, never for
// commands or patterns, an exact match always first, ties left alone; the deletion index itself.
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/engine/decide.js';
import { buildFuzzyIndex, correctWord, editDistance } from '../../src/engine/fuzzy.js';
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
const winner = (ruleSet: RuleSet, text: string) => decide(messageEvent(message(text)), ruleSet, EMPTY_STATE, { botUsername: 'shop_bot' }).ruleId;

const SHOP = `
fuzzy: auto
synonyms: [[shipping, delivery, postage]]
rules:
  - id: refund
    keywords: [refund, "money back"]
    reply: "Refunds take 5 days."
  - id: newsletter
    keywords: [newsletter]
    reply: "Unsubscribe with the link."
  - id: shipping
    keywords: [shipping]
    reply: "We ship in 2 days."
  - id: warranty
    keywords: [warranty]
    fuzzy: off
    reply: "Two years."
  - id: order
    pattern: '^order (\\d+)$'
    reply: "Order {{match.1}}"
  - id: subscription
    keywords: [subscription]
    reply: "Manage it in your account."
  - id: subscriptions
    keywords: [subscriptions]
    reply: "Manage them in your account."
  - id: help
    command: help
    reply: "help"
  - id: fallback
    fallback: true
    reply: "Sorry?"
`;

describe('fuzzy: auto', () => {
  it('one edit from 6 letters, two from 10; shorter words must be exact', async () => {
    const ruleSet = await load(SHOP);
    expect(winner(ruleSet, 'I want a refnud')).toBe('refund'); // a swap is one edit
    expect(winner(ruleSet, 'I want a refnd')).toBe('refund');
    expect(winner(ruleSet, 'I want a rfnd')).toBe('fallback'); // two edits for 6 letters: too many
    expect(winner(ruleSet, 'stop the newsleter')).toBe('newsletter');
    expect(winner(ruleSet, 'stop the nwesleter')).toBe('newsletter'); // two edits, 10 letters
    expect(winner(ruleSet, 'stop the nwslter')).toBe('fallback');
    expect(winner(ruleSet, 'give me my mony back')).toBe('fallback'); // "money" has 5 letters: no typo allowed
  });

  it('never for commands or patterns; a rule with fuzzy: off stays exact; an exact match always wins', async () => {
    const ruleSet = await load(SHOP);
    expect(winner(ruleSet, '/hlep')).toBe('fallback');
    expect(winner(ruleSet, 'ordr 12')).toBe('fallback');
    expect(winner(ruleSet, 'warranyt?')).toBe('fallback');
    // "subscriptions" is one edit from "subscription" and both are keywords: each matches itself exactly.
    expect(winner(ruleSet, 'my subscriptions')).toBe('subscriptions');
    expect(winner(ruleSet, 'my subscription')).toBe('subscription');
  });

  it('a typo as close to two words is left alone: the fallback answers rather than a guess', async () => {
    const ruleSet = await load(SHOP);
    // One edit from both "subscription" and "subscriptions".
    expect(winner(ruleSet, 'my subscriptionz')).toBe('fallback');
  });

  it('synonyms: a keyword matches where another word of its group is written (typos of them too)', async () => {
    const ruleSet = await load(SHOP);
    expect(winner(ruleSet, 'how long is delivery')).toBe('shipping');
    expect(winner(ruleSet, 'postage costs?')).toBe('shipping');
    expect(winner(ruleSet, 'how long is delivry')).toBe('shipping');
  });
});

describe('the deletion index', () => {
  it('finds the unique closest word within the allowed edits, by code points', () => {
    const index = buildFuzzyIndex(['newsletter', 'abbestellen', 'größe', 'lieferung'].map((word, rule) => ({ word, rule, language: null })))!;
    expect(correctWord(index, 'newsletter')).toBe('newsletter');
    expect(correctWord(index, 'newslettre')).toBe('newsletter');
    expect(correctWord(index, 'abestelen')).toBe('abbestellen');
    expect(correctWord(index, 'liefrung')).toBe('lieferung');
    expect(correctWord(index, 'grösse')).toBeUndefined(); // 5 letters: exact only
    expect(editDistance([...'abcd'], [...'acbd'], 2)).toBe(1);
    expect(editDistance([...'abcdef'], [...'ghijkl'], 2)).toBe(3);
  });
});

describe('check and fuzzy keywords', () => {
  it('warns about keywords of different fuzzy rules within a typo of each other, once, at the later rule', async () => {
    const problems = await withRuleDir({ 'bot.yaml': SHOP }, async (dir) => (await loadRules(dir)).problems.map((p) => p.format('bot.yaml')));
    expect(problems).toEqual([
      expect.stringMatching(
        /^bot\.yaml:25:15: warning: 'subscriptions' of rule 'subscriptions' is within a typo of 'subscription' of rule 'subscription' \(.*bot\.yaml:21:5\): with fuzzy matching a misspelling may reach the wrong one/,
      ),
    ]);
    const apart = await withRuleDir(
      { 'bot.yaml': 'fuzzy: auto\nrules:\n  - id: a\n    keywords: [refund]\n    reply: a\n  - id: b\n    keywords: [delivery]\n    reply: b\n' },
      async (dir) => (await loadRules(dir)).problems.map((p) => p.message),
    );
    expect(apart).toEqual([]);
  });

  it('warns where fuzzy: auto can do nothing: a pattern or command trigger, or a case_sensitive rule', async () => {
    const yaml =
      'rules:\n  - id: p\n    pattern: "^order"\n    fuzzy: auto\n    reply: p\n  - id: c\n    text: Hello\n    case_sensitive: true\n    fuzzy: auto\n    reply: c\n';
    const problems = await withRuleDir({ 'bot.yaml': yaml }, async (dir) => (await loadRules(dir)).problems.map((p) => p.format('bot.yaml')));
    expect(problems).toEqual([
      "bot.yaml:4:12: warning: fuzzy matching is for text, keywords and all triggers; rule 'p' has a pattern trigger, so it never applies: remove `fuzzy`",
      "bot.yaml:9:12: warning: rule 'c' is case_sensitive, so fuzzy matching never applies: remove one of them",
    ]);
  });
});
