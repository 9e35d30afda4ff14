// Checks a pattern's source as RE2 syntax (linear-time matching, so no pattern can hang us) and says in words
// what is wrong with one that is not: shared by rule triggers and conversation tests' `pattern` expectations,
// so both accept the same patterns, run them on the same engine and explain a refusal the same way.
import { LazyPattern } from './lazy-pattern.js';

/** A validated pattern, or why it cannot be used. */
export type PatternCheck = { readonly pattern: LazyPattern } | { readonly problem: string };

/**
 * Validates `source` as RE2 syntax. `caseAdvice` completes the message for a JavaScript regex literal with flags
 * (`/x/i`): how case is chosen where the pattern is written (rules: `case_sensitive`).
 */
export function checkPattern(source: string, caseSensitive: boolean, caseAdvice: string): PatternCheck {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(source);
  if (literal && literal[2]) {
    return {
      problem: `this looks like a JavaScript regex literal with flags '${literal[2]}': write only '${literal[1]}' (flags are not supported; g and y would make matching depend on the previous message, ${caseAdvice})`,
    };
  }
  try {
    return { pattern: LazyPattern.validate(source, caseSensitive) };
  } catch (e) {
    const detail = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '').replace('`(?i)', '`') : String(e);
    return { problem: `invalid pattern: ${detail}${missingFeatureHint(source)}` };
  }
}

/** Names the backtracking features RE2 leaves out, when the source uses one: they are the usual cause of a refusal. */
function missingFeatureHint(source: string): string {
  if (/\(\?(?:[=!]|<[=!])/.test(source)) return ' (lookarounds are not supported: RE2 syntax guarantees linear time)';
  if (/\\(?:[1-9]|k<)/.test(source)) return ' (back-references are not supported: RE2 syntax guarantees linear time)';
  return '';
}
