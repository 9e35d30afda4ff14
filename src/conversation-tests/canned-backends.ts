// The backends of a bot under test: `hearsay test` never calls a real one. Each request (a call the reply waits
// for, or a notify) is recorded and answered from the test file's canned answers, by backend and `METHOD /path`; a
// request without an answer is a problem the step reports (with what to add), and goes to the rule's error branch.
import type { JsonValue } from '../engine/actions.js';
import type { BackendRequest, BackendResult } from '../engine/backend-calls.js';
import type { BackendCaller } from '../pipeline/backend-port.js';
import type { CannedAnswers, ExpectedCall } from './model.js';

/** A request the bot made. */
export interface MadeCall {
  readonly kind: 'call' | 'notify';
  readonly backend: string;
  readonly method: string;
  readonly path: string;
  readonly body?: JsonValue;
}

export class CannedBackends implements BackendCaller {
  readonly calls: MadeCall[] = [];
  private problems: string[] = [];

  constructor(private readonly answers: CannedAnswers) {}

  call(request: BackendRequest): Promise<BackendResult> {
    return Promise.resolve(this.answer(request, 'call'));
  }

  /** A notify the outbox performs. */
  notify(request: BackendRequest): BackendResult {
    return this.answer(request, 'notify');
  }

  /** Requests that had no canned answer since the last look, each as what to add to the test file. */
  takeProblems(): string[] {
    return this.problems.splice(0);
  }

  private answer(request: BackendRequest, kind: MadeCall['kind']): BackendResult {
    this.calls.push({
      kind,
      backend: request.backend,
      method: request.method,
      path: request.path,
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    const key = `${request.method} ${request.path}`;
    const answer = this.answers.get(request.backend)?.get(key);
    if (answer) return answer;
    this.problems.push(
      `no canned answer for ${request.backend}: ${key}; add it to the test file, e.g. backends: { ${request.backend}: { "${key}": { status: 200, json: { ... } } } }`,
    );
    return { status: null, failure: 'not_declared' };
  }
}

/** The diff lines of an expected call against the calls made (empty when it was made exactly once). */
export function callDiff(expected: ExpectedCall, made: readonly MadeCall[]): string[] {
  const matching = made.filter(
    (call) =>
      call.backend === expected.backend &&
      call.method === expected.method &&
      call.path === expected.path &&
      (expected.body === undefined || contains(call.body, expected.body)),
  );
  if (matching.length === 1) return [];
  const wanted = `${expected.backend}: ${expected.method} ${expected.path}${expected.body !== undefined ? ` ${JSON.stringify(expected.body)}` : ''}`;
  const lines = [`- ${matching.length === 0 ? 'a call' : 'one call, not ' + matching.length}: ${wanted}`];
  if (made.length === 0) lines.push('+ no backend requests');
  for (const call of made)
    lines.push(`+ ${call.kind} ${call.backend}: ${call.method} ${call.path}${call.body !== undefined ? ` ${JSON.stringify(call.body)}` : ''}`);
  return lines;
}

/** Whether `actual` has everything `expected` gives: objects by their keys, lists item by item, anything else equal. */
function contains(actual: JsonValue | undefined, expected: JsonValue): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => contains(actual[i], item));
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && contains(actual[key], value));
  }
  // A number written in the test matches the same number sent as text ("4" for 4): bodies carry rendered templates.
  return actual === expected || (typeof expected === 'number' && actual === String(expected));
}
