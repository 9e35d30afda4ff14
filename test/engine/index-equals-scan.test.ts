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
  {
    chat_types: fc.constantFrom(['private'], ['group'], ['private', 'group']) as fc.Arbitrary<Rule['chat_types']>,
    chats: fc.constantFrom([1], [2], [1, 2]) as fc.Arbitrary<Rule['chats']>,
  },
  { requiredKeys: [] },
);
const trigger = fc.oneof(
  fc.record({ command: fc.constantFrom('start', 'help', 'Start') }),
  fc.record({ text: phrase }),
  fc.record({ keywords: fc.array(phrase, { minLength: 1, maxLength: 3 }) }),
  fc.record({ all: fc.array(phrase, { minLength: 1, maxLength: 3 }) }),
  fc.record({ keywords: fc.array(phrase, { minLength: 1, maxLength: 2 }), all: fc.array(word, { minLength: 2, maxLength: 3 }) }),
  fc.record({ pattern: fc.constantFrom('^hi', 'order\\s*(\\d+)', '(?<n>\\d+)', 'back$', 'ss', 'привет') }),
  fc.constant({ fallback: true as const }),
);
const rule = fc.tuple(trigger, conditions, fc.boolean()).map(([t, c, cs]) => ({ ...t, ...c, ...(cs ? { case_sensitive: true } : {}) }));
const ruleList = fc.array(rule, { minLength: 1, maxLength: 25 }).map((rs) => rs.map((r, i) => ({ id: `r${i}`, reply: 'x', ...r }) as Rule));

// Patterns built to catch an unsound prefilter: literals in several cases and scripts (incl. characters
// whose case variants are not plain upper/lower pairs), alternations, optional and repeated groups,
// classes, escapes and inline case flags.
const patternWords = [
  'hi',
  'HI',
  'ß',
  'ẞ',
  'ss',
  'Σ',
  'σ',
  'ς',
  'İ',
  'i',
  'ı',
  'k',
  'K',
  'ſ',
  's',
  '\u0390',
  '\u1fd3',
  'order',
  'Straße',
  'ΟΔΟΣ',
  'привет',
  '退款',
];
const patternAtom = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...patternWords) },
  fc.constantFrom('\\d+', '.', '[a-z]', '[^x]', '\\s*', '\\b', '\\.', '\\x{4b}', '\\p{L}', '{', ' '),
);
const patternPart = fc.oneof(
  { weight: 3, arbitrary: patternAtom },
  fc.tuple(patternAtom, patternAtom).map(([a, b]) => `(?:${a}|${b})`),
  fc.tuple(patternAtom, patternAtom).map(([a, b]) => `(${a}${b})?`),
  fc.tuple(patternAtom, fc.constantFrom('*', '+', '?', '{0,2}', '{1,2}', '+?')).map(([a, q]) => `(?:${a})${q}`),
  fc.tuple(fc.constantFrom('(?i:', '(?-i:', '(?i)', '(?P<g>'), patternAtom).map(([open, a]) => (open === '(?i)' ? `${open}${a}` : `${open}${a})`)),
);
let groupName = 0;
const patternSource = fc.array(patternPart, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('').replace(/\(\?P<g>/g, () => `(?P<g${groupName++}>`));
const patternMessage = fc
  .array(fc.tuple(fc.constantFrom(...patternWords, 'SS', 'KELVIN', '\u1fd3', 'x', '42', '.', '{'), fc.constantFrom(' ', '', '!')), {
    minLength: 1,
    maxLength: 5,
  })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));
const patternRules = fc
  .array(fc.tuple(patternSource, fc.boolean(), conditions), { minLength: 1, maxLength: 12 })
  .map((rs) => [
    ...rs.map(([pattern, cs, c], i) => ({ id: `p${i}`, reply: 'x', pattern, ...c, ...(cs ? { case_sensitive: true } : {}) }) as Rule),
    { id: 'fb', reply: 'x', fallback: true } as Rule,
  ]);

describe('indexed matching equals a linear scan', () => {
  it('for pattern rules that stress the literal prefilter', () => {
    fc.assert(
      fc.property(patternRules, fc.array(fc.tuple(patternMessage, fc.constantFrom(1, 2)), { minLength: 1, maxLength: 8 }), (rules, messages) => {
        const ruleSet = compileRules(rules);
        for (const [text, chatId] of messages) {
          const m = message(text, { chatType: 'private', chatId });
          const indexed = matchMessage(m, ruleSet, 'bot');
          const linear = matchLinear(m, ruleSet, 'bot');
          expect(indexed?.rule.id ?? null, `${text} ~ ${indexed?.rule.id}`).toBe(linear?.rule.id ?? null);
          expect(indexed?.captures && [...indexed.captures]).toEqual(linear?.captures && [...linear.captures]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('for random rule sets and messages', () => {
    fc.assert(
      fc.property(
        ruleList,
        fc.array(fc.tuple(messageText, fc.constantFrom('private', 'group') as fc.Arbitrary<'private' | 'group'>, fc.constantFrom(1, 2)), {
          minLength: 1,
          maxLength: 10,
        }),
        (rules, messages) => {
          const ruleSet = compileRules(rules);
          for (const [text, chatType, chatId] of messages) {
            const m = message(text, { chatType, chatId });
            const indexed = matchMessage(m, ruleSet, 'bot');
            const linear = matchLinear(m, ruleSet, 'bot');
            expect(indexed?.rule.id ?? null, text).toBe(linear?.rule.id ?? null);
            expect(indexed?.args).toEqual(linear?.args);
            expect(indexed?.captures && [...indexed.captures]).toEqual(linear?.captures && [...linear.captures]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
