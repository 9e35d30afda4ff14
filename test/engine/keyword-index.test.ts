// Keywords are filed under their least shared word (not always the first): matches must still need
// the whole keyword with word edges, exactly as the linear scan decides.
import { describe, expect, it } from 'vitest';
import { compileRules } from '../../src/engine/compile.js';
import { matchLinear } from '../../src/engine/linear-scan.js';
import { matchMessage } from '../../src/engine/match.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { message } from './messages.js';

const rules: Rule[] = [
  { id: 'a', keywords: ['phrase 1 here'], reply: 'a' },
  { id: 'b', keywords: ['phrase 2 here'], reply: 'b' },
  { id: 'c', keywords: ['#phrase 3 here!'], reply: 'c' },
  { id: 'd', keywords: ['alpha beta', 'alpha gamma'], reply: 'd' },
  { id: 'e', keywords: ['Alpha Gamma'], case_sensitive: true, reply: 'e' },
  { id: 'fb', fallback: true, reply: 'fb' },
];
const ruleSet = compileRules(rules);

describe('keyword index', () => {
  it.each([
    ['say phrase 2 here please', 'b'],
    ['phrase 2 here', 'b'],
    ['phrase 2 heres', 'fb'],
    ['phrase 22 here', 'fb'],
    ['xphrase 1 here', 'fb'],
    ['#phrase 3 here!', 'c'],
    ['phrase 3 here!', 'fb'],
    ['well alpha gamma', 'd'],
    ['alpha gammax', 'fb'],
    ['Alpha Gamma', 'd'],
    ['ALPHA  GAMMA', 'd'],
  ])('%j answers with %s, as the linear scan does', (text, id) => {
    const m = message(text);
    expect(matchMessage(m, ruleSet, 'bot')?.rule.id).toBe(id);
    expect(matchLinear(m, ruleSet, 'bot')?.rule.id).toBe(id);
  });
});
