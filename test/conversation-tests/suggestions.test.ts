// `hearsay test` and "when unsure, ask" (`suggest:`): a step expects the rules a message offered, by id and best
// first (`expect: { suggestions: [...] }`), presses one by its rule (`press: { suggestion: id }`), gets a diff in
// the file's notation when they differ and a clear problem for a rule not offered; `--update` records them. Through
// the update pipeline and through the engine alone, with the same results; also for a contested keyword match (`when_contested`).
import { describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { updateText } from '../../src/conversation-tests/update-tests.js';
import { failureTexts, runTestFile } from './test-files.js';

const SHOP = `
languages: { default: en, supported: [en, de] }
synonyms: [[shipping, delivery, postage]]
suggest: { when_unmatched: true, max: 3, none: fallback }
rules:
  - id: shipping-cost
    keywords: { en: ["shipping costs"], de: [versandkosten] }
    label: { en: "Shipping costs", de: "Versandkosten" }
    examples: ["how much is shipping", "Was kostet der Versand?"]
    reply: "Shipping is 4.90."
  - id: shipping-time
    keywords: ["delivery time"]
    examples: ["how long does shipping take"]
    reply: "2 to 4 days."
  - id: returns
    keywords: [returns, "send back"]
    examples: ["how do I return an item"]
    reply: "Returns are free."
  - id: fallback
    fallback: true
    reply: "Sorry?"
`;

async function run(tests: string, driver: 'pipeline' | 'engine'): Promise<SessionOutcome> {
  return runTestFile(SHOP, tests, driver);
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.testProblems).toEqual([]);
  return failureTexts(outcome, { name: false, line: true });
}

describe.each(['pipeline', 'engine'] as const)('suggestions in hearsay test through the %s', (driver) => {
  it('expects the rules offered, best first, and presses one by its rule: the answer is that rule’s', async () => {
    const outcome = await run(
      `
tests:
  - name: unsure
    steps:
      - say: what does shipping cost me
        expect: { suggestions: [shipping-cost, shipping-time] }
      - press: { suggestion: shipping-time }
        expect: "2 to 4 days."
      - say: retrns?
        expect: { text: "I'm not sure I understood. Did you mean:", suggestions: [returns] }
      - press: { suggestion: returns }
        expect: "Returns are free."
`,
      driver,
    );
    expect(failures(outcome)).toEqual([]);
    expect(outcome.results[0]!.steps).toHaveLength(4);
  });

  it('shows a diff in the file’s notation when other rules were offered, and says which were when a pressed one was not', async () => {
    const wrongOrder = await run(
      `
tests:
  - name: order
    steps:
      - say: what does shipping cost me
        expect: { suggestions: [shipping-time, shipping-cost] }
`,
      driver,
    );
    expect(failures(wrongOrder)).toEqual([
      '@5: the bot did not answer as expected\n- { suggestions: [shipping-time, shipping-cost] }\n+ { suggestions: [shipping-cost, shipping-time] }',
    ]);
    const notOffered = await run(
      `
tests:
  - name: press
    steps:
      - say: what does shipping cost me
      - press: { suggestion: returns }
`,
      driver,
    );
    expect(failures(notOffered)).toEqual(["@6: no suggestion of rule 'returns' in this chat (suggested: shipping-cost, shipping-time)"]);
  });

  it('with when_contested, a keyword match closer to another rule is expected and pressed as suggestions too', async () => {
    const outcome = await runTestFile(
      SHOP.replace('suggest: { when_unmatched: true,', 'suggest: { when_unmatched: true, when_contested: true,'),
      `
tests:
  - name: contested
    steps:
      - say: how long does shipping take if I send back
        expect: { suggestions: [shipping-time, returns, shipping-cost] }
      - press: { suggestion: returns }
        expect: "Returns are free."
      - say: I want to send back an item
        expect: "Returns are free."
`,
      driver,
    );
    expect(failures(outcome)).toEqual([]);
  });

  it('a message answered by a rule is no suggestion message', async () => {
    const outcome = await run(
      `
tests:
  - name: answered
    steps:
      - say: what are the shipping costs
        expect: { suggestions: [shipping-cost] }
`,
      driver,
    );
    expect(failures(outcome)).toEqual(['@5: the bot did not answer as expected\n- { suggestions: [shipping-cost] }\n+ "Shipping is 4.90."']);
  });
});

describe('hearsay test --update and suggestions', () => {
  it('records a suggestion message as the rules it offered', async () => {
    const text = `
tests:
  - name: record
    steps:
      - say: what does shipping cost me
        expect:
`;
    const outcome = await run(text, 'pipeline');
    const updated = updateText(text, outcome.results[0]!.steps);
    expect(updated.text).toContain('expect: { suggestions: [ shipping-cost, shipping-time ] }');
  });
});
