// Times a function over a list of inputs: repeats whole passes until a time budget is
// spent (at least `minCalls` calls), and reports the mean time per call in nanoseconds.

export function nsPerCall(fn, inputs, { budgetMs = 200, minCalls = 20 } = {}) {
  // A short warm-up so the first compiled tier is not what we measure.
  for (let i = 0; i < Math.min(inputs.length, 50); i += 1) fn(inputs[i]);
  let calls = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(budgetMs) * 1_000_000n;
  let elapsed = 0n;
  while (elapsed < budget || calls < minCalls) {
    fn(inputs[calls % inputs.length]);
    calls += 1;
    if ((calls & 15) === 0 || calls < minCalls) elapsed = process.hrtime.bigint() - start;
  }
  elapsed = process.hrtime.bigint() - start;
  return { nsPerCall: Number(elapsed) / calls, calls };
}
