// The made-up vocabulary of the matching benches: words of 6 to 12 lower-case letters drawn from a seeded
// source (bench/workload/prng.mjs), so every run builds the same rule sets and sends the same messages.
import { createPrng } from '../workload/prng.mjs';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A seeded source of numbers in [0, 1) and of made-up words. */
export function madeUpWords(seed) {
  const { next } = createPrng(seed);
  const word = () => Array.from({ length: 6 + Math.floor(next() * 7) }, () => LETTERS[Math.floor(next() * 26)]).join('');
  return { random: next, word };
}
