// A misspelt key leaves its node without the key it meant (`comand:` → no trigger, `aks:` → no question): the
// schema then also says the node lacks that key, which is the same mistake told twice. This finds those echoes.
import type { ErrorObject } from 'ajv/dist/2020.js';
import { nearest } from '../diagnostics/suggest.js';

/** Errors that say a node lacks something (directly, or as the failed branches of a choice). */
const ABSENCE = new Set(['required', 'anyOf', 'oneOf', 'if', 'not', 'dependentRequired']);

/**
 * The errors of `errors` that only echo a misspelt key: those saying a node lacks a key when the same node has
 * an unknown key that is a typo of one it lacks. The misspelling's own error stays, and says what was meant.
 */
export function consequentialErrors(errors: readonly ErrorObject[]): ReadonlySet<ErrorObject> {
  const missing = new Map<string, string[]>();
  for (const error of errors) {
    if (error.keyword !== 'required') continue;
    const key = String((error.params as { missingProperty?: string }).missingProperty);
    missing.set(error.instancePath, [...(missing.get(error.instancePath) ?? []), key]);
  }
  const misspelt = new Set<string>();
  for (const error of errors) {
    if (error.keyword !== 'additionalProperties') continue;
    const extra = String((error.params as { additionalProperty?: string }).additionalProperty);
    if (nearest(extra, missing.get(error.instancePath) ?? []) !== undefined) misspelt.add(error.instancePath);
  }
  return new Set(errors.filter((error) => ABSENCE.has(error.keyword) && misspelt.has(error.instancePath)));
}
