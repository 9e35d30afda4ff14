// The order of the contestants within each round of `bench/run.mjs --rounds N`.

/**
 * The contestants' order in round `round` (1-based), as indexes into the list of `count`: each round starts one
 * further along, so over the rounds every contestant runs in every position equally often. Where a run fell in its
 * round moved the webhook pair's ratio by ~10 points on the reference machine (BENCHMARKS.md), more than the
 * differences the rounds are there to judge.
 * @param {number} count
 * @param {number} round
 * @returns {number[]}
 */
export function roundOrder(count, round) {
  const order = [...Array(count).keys()];
  const shift = (round - 1) % count;
  return [...order.slice(shift), ...order.slice(0, shift)];
}
