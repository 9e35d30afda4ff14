// `hearsay test` never calls a real backend: the test file's canned answers (as the issue writes them) answer
// the calls and notifies, `{ error: timeout }` makes the error branch testable, `expect_call` asserts the
// requests made (exactly once, with what the body must contain), and a request with no canned answer fails its
// step saying what to add — through the update pipeline and through the engine alone alike.
import { beforeAll, describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { BOOKING_FLOW } from '../support/booking-flow.js';
import { failureTexts, runTestFile } from './test-files.js';

const RULES = `
rules:
  - id: order-status
    pattern: 'order\\s*#?\\s*(?<num>\\d{3,10})'
    call: { backend: shop, get: "/orders/{{match.num}}" }
    on:
      ok:    { reply: "Order {{match.num}}: {{result.status}}, expected {{result.eta}}." }
      404:   { reply: "I can't find order {{match.num}}. Check the number on your receipt?" }
      error: { reply: "Our shop system isn't answering right now; please try again in a few minutes." }
  - id: hello
    text: hello
    reply: Hi!
    notify: { backend: crm, post: /events, body: { event: hello, user: "{{user.id}}" } }
flows:
${BOOKING_FLOW}`;

const TESTS = `
backends:
  shop:
    "GET /orders/4711": { status: 200, json: { status: shipped, eta: "Friday" } }
    "GET /orders/9999": { status: 404 }
    "POST /bookings":   { status: 201, json: { reference: "B-17" } }
  crm:
    "POST /events": { status: 202 }
tests:
  - name: order found
    steps:
      - say: "where is order 4711?"
        expect: "Order 4711: shipped, expected Friday."
      - say: "order 9999"
        expect: "I can't find order 9999. Check the number on your receipt?"
  - name: booking calls the shop once
    steps:
      - say: /book
      - say: Friday
      - say: "4"
      - say: y
        expect: "Booked! Your reference is B-17."
        state: { user.booking: B-17 }
      - expect_call: { backend: shop, post: /bookings, body: { size: "4" } }
  - name: the shop times out
    backends:
      shop:
        "GET /orders/4711": { error: timeout }
    steps:
      - say: "order 4711"
        expect: "Our shop system isn't answering right now; please try again in a few minutes."
        expect_call: { backend: shop, get: /orders/4711 }
  - name: a notify is a request too
    steps:
      - say: hello
        expect: Hi!
        expect_call: { backend: crm, post: /events, body: { event: hello } }
`;

let driver: 'pipeline' | 'engine' = 'pipeline';

async function runTests(tests: string): Promise<SessionOutcome> {
  return runTestFile(RULES, tests, driver);
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.testProblems.map((p) => p.format())).toEqual([]);
  return failureTexts(outcome, { name: true, line: true });
}

describe.each(['pipeline', 'engine'] as const)('backends in hearsay test, through the %s', (kind) => {
  beforeAll(() => {
    driver = kind;
  });

  it('answers calls and notifies from the canned answers, and checks the requests made', async () => {
    const outcome = await runTests(TESTS);
    expect(failures(outcome)).toEqual([]);
    expect(outcome.results).toHaveLength(4);
  });

  it('fails a step whose expected request was not made, or made twice, listing the requests', async () => {
    const outcome = await runTests(`
backends:
  shop:
    "GET /orders/4711": { json: { status: shipped, eta: Friday } }
tests:
  - name: twice
    steps:
      - say: order 4711
      - say: order 4711
      - expect_call: { backend: shop, get: /orders/4711 }
  - name: wrong body
    steps:
      - say: order 4711
        expect_call: { backend: shop, post: /orders/4711, body: { a: 1 } }
`);
    expect(failures(outcome)).toEqual([
      'twice @10: the bot did not make the backend requests expected\n- one call, not 2: shop: GET /orders/4711\n+ call shop: GET /orders/4711\n+ call shop: GET /orders/4711',
      'wrong body @13: the bot did not make the backend requests expected\n- a call: shop: POST /orders/4711 {"a":1}\n+ call shop: GET /orders/4711',
    ]);
  });

  it('fails a step that made a request with no canned answer, saying what to add', async () => {
    const outcome = await runTests(`
tests:
  - name: unknown order
    steps:
      - say: order 1234
        expect: "anything"
`);
    expect(failures(outcome)).toEqual([
      'unknown order @5: no canned answer for shop: GET /orders/1234; add it to the test file, e.g. backends: { shop: { "GET /orders/1234": { status: 200, json: { ... } } } }',
    ]);
  });
});
