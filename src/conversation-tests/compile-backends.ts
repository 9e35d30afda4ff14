// Compiles what a test file says about backends: the canned answers (the file's, then a test's own over them) and
// the `expect_call` of a step. The schema has checked their shapes.
import type { JsonValue } from '../engine/actions.js';
import type { BackendMethod, BackendResult } from '../engine/backend-calls.js';
import type { CannedAnswers, ExpectedCall } from './model.js';

type Raw = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The canned answers of `raw` (a `backends:` mapping) over `base`. */
export function cannedAnswers(raw: unknown, base: CannedAnswers = new Map()): CannedAnswers {
  if (raw === undefined) return base;
  const answers = new Map([...base].map(([name, requests]) => [name, new Map(requests)]));
  for (const [name, requests] of Object.entries(raw as Record<string, Raw>)) {
    const known = answers.get(name) ?? new Map<string, BackendResult>();
    for (const [key, answer] of Object.entries(requests)) known.set(key.replace(/^(\S+)\s+/, '$1 '), resultOf(answer as Raw));
    answers.set(name, known);
  }
  return answers;
}

function resultOf(answer: Raw): BackendResult {
  if (answer.error !== undefined) return { status: null, failure: answer.error as 'timeout' | 'network' };
  const body = answer.json !== undefined ? (answer.json as JsonValue) : (answer.text as string | undefined);
  return { status: (answer.status as number | undefined) ?? 200, ...(body !== undefined ? { body } : {}) };
}

/** A step's `expect_call` (one, or a list), or undefined when it has none. */
export function expectedCalls(raw: unknown): ExpectedCall[] | undefined {
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw : [raw]).map((item: Raw) => {
    const key = METHODS.find((method) => item[method] !== undefined)!;
    return {
      backend: item.backend as string,
      method: key.toUpperCase() as BackendMethod,
      path: item[key] as string,
      ...(item.body !== undefined ? { body: item.body as JsonValue } : {}),
    };
  });
}
