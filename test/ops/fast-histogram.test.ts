// The fast histograms read out byte for byte as prom-client's own Histogram does after the same observations:
// the text a Prometheus scrape gets (both exposition formats) and the objects of getMetricsAsJSON().
import fc from 'fast-check';
import { Histogram, Registry, type RegistryContentType } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastHistogram, LabelledFastHistogram } from '../../src/ops/fast-histogram.js';

const API_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const MATCH_BUCKETS = [0.00001, 0.00005, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1];

/** Durations as they come, plus every bound itself, just either side of it, zero and far above the last. */
function observation(buckets: readonly number[]): fc.Arbitrary<number> {
  const edges = buckets.flatMap((b) => [b, b * (1 - 1e-12), b * (1 + 1e-12)]);
  return fc.oneof(fc.constantFrom(0, 1e9, ...edges), fc.double({ min: 0, max: buckets.at(-1)! * 2, noNaN: true }));
}

async function exposition(registry: Registry<RegistryContentType>): Promise<{ text: string; openMetrics: string; json: unknown }> {
  const text = await registry.metrics();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  const openMetrics = await registry.metrics();
  registry.setContentType(Registry.PROMETHEUS_CONTENT_TYPE);
  return { text, openMetrics, json: await registry.getMetricsAsJSON() };
}

describe('FastHistogram', () => {
  it('exposes what a prom-client Histogram with the same observations exposes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation(MATCH_BUCKETS), { maxLength: 60 }), async (values) => {
        const reference = new Registry<RegistryContentType>();
        const ours = new Registry<RegistryContentType>();
        const config = { name: 'hearsay_match_duration_seconds', help: 'Time to match one message against the rule set.', buckets: MATCH_BUCKETS };
        const histogram = new Histogram({ ...config, registers: [reference] });
        const fast = new FastHistogram({ ...config, registers: [ours] });
        for (const value of values) {
          histogram.observe(value);
          fast.observe(value);
        }
        expect(await exposition(ours)).toEqual(await exposition(reference));
      }),
    );
  });

  it('shows its series at zero before any observation, and again after a reset', async () => {
    const reference = new Registry();
    const ours = new Registry();
    const config = { name: 'match_seconds', help: 'Matching.', buckets: MATCH_BUCKETS };
    new Histogram({ ...config, registers: [reference] });
    const fast = new FastHistogram({ ...config, registers: [ours] });
    expect(await ours.metrics()).toEqual(await reference.metrics());
    expect(await ours.metrics()).toMatch(/^match_seconds_bucket\{le="0.00001"\} 0$/m);
    fast.observe(0.002);
    ours.resetMetrics();
    expect(await ours.metrics()).toEqual(await reference.metrics());
  });
});

describe('LabelledFastHistogram', () => {
  it('exposes what a prom-client Histogram with the same labelled observations exposes, series in first-seen order', async () => {
    const method = fc.oneof(
      fc.constantFrom('getupdates', 'sendmessage', 'answercallbackquery'),
      fc.string({ maxLength: 6 }),
      fc.constantFrom('a"b', 'c\\d', 'e\nf'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(method, observation(API_BUCKETS)), { maxLength: 60 }), async (observations) => {
        const reference = new Registry<RegistryContentType>();
        const ours = new Registry<RegistryContentType>();
        const config = { name: 'hearsay_api_call_duration_seconds', help: 'Time from sending a Bot API request to its answer.', buckets: API_BUCKETS };
        const histogram = new Histogram({ ...config, labelNames: ['method'], registers: [reference] });
        const fast = new LabelledFastHistogram({ ...config, labelName: 'method', registers: [ours] });
        for (const [name, value] of observations) {
          histogram.observe({ method: name }, value);
          fast.observe(name, value);
        }
        expect(await exposition(ours)).toEqual(await exposition(reference));
      }),
    );
  });

  it('counts each observation in exactly one bucket: the first bound it does not exceed', async () => {
    const registry = new Registry();
    const fast = new LabelledFastHistogram({ name: 'd', help: 'D.', labelName: 'method', buckets: [1, 2, 3], registers: [registry] });
    for (const value of [0, 1, 1.5, 2, 3, 3.5]) fast.observe('m', value);
    const text = await registry.metrics();
    expect(text).toContain(
      ['d_bucket{le="1",method="m"} 2', 'd_bucket{le="2",method="m"} 4', 'd_bucket{le="3",method="m"} 5', 'd_bucket{le="+Inf",method="m"} 6'].join('\n'),
    );
    expect(text).toContain('d_sum{method="m"} 11\nd_count{method="m"} 6');
  });
});
