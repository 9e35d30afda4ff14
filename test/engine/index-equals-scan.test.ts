// Property: the indexed matcher picks exactly the rule (and captures) a naive first-match linear scan
// picks, for random rule sets and messages built from a small shared vocabulary so that they collide.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRules } from '../../src/engine/compile.js';
import { matchLinear } from '../../src/engine/linear-scan.js';
import { matchMessage } from '../../src/engine/match.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { message } from './messages.js';

const words = ['hi', 'Hi', 'order', 'refund', 'money', 'back', 'café', 'ß', 'ss', 'привет', '退款', '42', 'x'];
const word = fc.constantFrom(...words);
const phrase = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const seps = fc.constantFrom(' ', '  ', ', ', '!', '-', '');
const messageText = fc
  .array(fc.tuple(fc.oneof(word, fc.constantFrom('/start', '/help', '/start@bot', '/help@other')), seps), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

const conditions = fc.record(
  { chat_types: fc.constantFrom(['private'], ['group'], ['private', 'group']) as fc.Arbitrary<Rule['chat_types']>, chats: fc.constantFrom([1], [2], [1, 2]) as fc.Arbitrary<Rule['chats']> },
  { requiredKeys: [] },
);
const trigger = fc.oneof(
  fc.record({ command: fc.constantFrom('start', 'help', 'Start') }),
  fc.record({ text: phrase }),
  fc.record({ keywords: fc.array(phrase, { minLength: 1, maxLength: 3 }) }),
  fc.record({ pattern: fc.constantFrom('^hi', 'order\\s*(\\d+)', '(?<n>\\d+)', 'back$', 'ss', 'привет') }),
  fc.constant({ fallback: true as const }),
);
const rule = fc.tuple(trigger, conditions, fc.boolean()).map(([t, c, cs]) => ({ ...t, ...c, ...(cs ? { case_sensitive: true } : {}) }));
const ruleList = fc.array(rule, { minLength: 1, maxLength: 25 }).map((rs) => rs.map((r, i) => ({ id: `r${i}`, reply: 'x', ...r }) as Rule));

describe('indexed matching equals a linear scan', () => {
  it('for random rule sets and messages', () => {
    fc.assert(
      fc.property(ruleList, fc.array(fc.tuple(messageText, fc.constantFrom('private', 'group') as fc.Arbitrary<'private' | 'group'>, fc.constantFrom(1, 2)), { minLength: 1, maxLength: 10 }), (rules, messages) => {
        const ruleSet = compileRules(rules);
        for (const [text, chatType, chatId] of messages) {
          const m = message(text, { chatType, chatId });
          const indexed = matchMessage(m, ruleSet, 'bot');
          const linear = matchLinear(m, ruleSet, 'bot');
          expect(indexed?.rule.id ?? null, text).toBe(linear?.rule.id ?? null);
          expect(indexed?.args).toEqual(linear?.args);
          expect(indexed?.captures && [...indexed.captures]).toEqual(linear?.captures && [...linear.captures]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
