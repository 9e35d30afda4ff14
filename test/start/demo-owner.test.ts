// The user who creates the demo bot (and so holds its token in the chat with BotMaker) is nobody a page or a
// script would pick: a new random id at every start, far above the ids the chat page gives its users.
import { describe, expect, it } from 'vitest';
import { demoOwner } from '../../src/demo/embedded-demo.js';

describe('the demo bot owner', () => {
  it('is a new random user at every start, outside the range of the page users', () => {
    const ids = Array.from({ length: 50 }, () => demoOwner().id);
    expect(new Set(ids).size).toBe(50);
    for (const id of ids) {
      expect(Number.isSafeInteger(id)).toBe(true);
      // The page picks 100000 + up to 2e9.
      expect(id).toBeGreaterThan(2 ** 31);
    }
    expect(demoOwner().first_name).toBe('hearsay');
  });
});
