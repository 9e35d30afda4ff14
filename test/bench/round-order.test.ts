import { describe, expect, it } from 'vitest';
import { roundOrder } from '../../bench/round-order.mjs';

describe('the order of the contestants in the rounds of --rounds', () => {
  it('starts each round one contestant further along', () => {
    expect([1, 2, 3, 4, 5].map((round) => roundOrder(4, round))).toEqual([
      [0, 1, 2, 3],
      [1, 2, 3, 0],
      [2, 3, 0, 1],
      [3, 0, 1, 2],
      [0, 1, 2, 3],
    ]);
  });

  it('over as many rounds as contestants, puts each contestant in every position once', () => {
    const count = 5;
    const rounds = Array.from({ length: count }, (_, i) => roundOrder(count, i + 1));
    for (let position = 0; position < count; position++) {
      expect(new Set(rounds.map((order) => order[position])).size).toBe(count);
    }
    expect(roundOrder(1, 7)).toEqual([0]);
  });
});
