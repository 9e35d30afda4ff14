// How the bench sizes a replicated run: updates (and with --replica-rate each, the rate they arrive at) per replica or in all.
import { describe, expect, it } from 'vitest';
import { scaledForReplicas } from '../../bench/replica-scale.mjs';

describe('a run of N replicas under --replicas', () => {
  it('gives each replica what one alone gets with each', () => {
    expect([1, 2, 4, 8].map((replicas) => scaledForReplicas(20_000, replicas, 'each'))).toEqual([20_000, 40_000, 80_000, 160_000]);
    expect(scaledForReplicas(800, 4, 'each')).toBe(3200);
  });

  it('keeps the figure for all replicas together with total, and leaves contestants without replicas alone', () => {
    expect(scaledForReplicas(20_000, 4, 'total')).toBe(20_000);
    expect(scaledForReplicas(20_000, undefined, 'each')).toBe(20_000);
  });
});
