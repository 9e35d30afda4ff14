// The shipped demo bot in rules/ loads cleanly, every example reaches its rule, and it answers as documented.
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../src/rules/load.js';
import { decideMessage, message, replyText } from '../engine/messages.js';

const rulesDir = new URL('../../rules', import.meta.url).pathname;

describe('demo bot in rules/', () => {
  it('loads with no problems, not even warnings', async () => {
    const outcome = await loadRules(rulesDir);
    expect(outcome.problems.map((p) => p.format())).toEqual([]);
    expect(outcome.files.length).toBeGreaterThanOrEqual(2);
    expect(outcome.ruleSet?.rules.length).toBe(outcome.ruleCount);
  });

  it('answers commands, patterns, keywords and the fallback', async () => {
    const { ruleSet } = await loadRules(rulesDir);
    const answer = (text: string, chatType: 'private' | 'group' = 'private') =>
      decideMessage(message(text, { chatType }), ruleSet!, 'corner_shop_bot', () => 0);
    expect(replyText(answer('/start'))).toContain('Welcome to the Corner Shop desk, Ada!');
    expect(replyText(answer('/help'))).toContain('/order <number>');
    expect(answer('where is order 4711?')).toMatchObject({
      ruleId: 'order-status',
      actions: [{ type: 'send_message', text: expect.stringContaining('Order 4711 is packed'), replyToMessageId: 7 }],
    });
    expect(replyText(answer('/order 55'))).toContain('Looking up order 55');
    expect(answer('I want a refund').ruleId).toBe('refund');
    expect(answer('I want a refund', 'group').ruleId).toBe('refund-group');
    expect(replyText(answer('Hello'))).toBe('Hello, Ada!');
    expect(answer('tell me a joke').ruleId).toBe('fallback');
    expect(answer('/start@some_other_bot')).toEqual({ ruleId: null, actions: [] });
  });
});
