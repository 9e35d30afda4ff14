// Check-time warnings for suggestions (`suggest:`): an example of a rule that another rule outscores (when
// unsure, that other rule is offered first for it), and two rules offered under the same label in one
// language (the user cannot tell their buttons apart). Only with a `suggest` block.
import { problemAt, type RuleLocator, type RuleProblem } from '../diagnostics/problem.js';
import { normalize } from '../engine/normalize.js';
import type { CompiledRule, RuleSet } from '../engine/rule-set.js';
import { scoreMessage } from '../engine/suggest-index.js';
import { suggestionLabel } from '../engine/suggestions.js';

/** The warnings about a rule set's suggestions (none without `suggest:`). */
export function suggestWarnings(ruleSet: RuleSet, locate: RuleLocator): RuleProblem[] {
  const suggestions = ruleSet.suggestions;
  if (!suggestions) return [];
  const warnings: RuleProblem[] = [];
  const position = (rule: CompiledRule) => `${rule.file}:${rule.line}:${rule.column}`;
  for (const [doc, rule] of suggestions.rules.entries()) {
    for (const [i, example] of rule.examples.entries()) {
      const scores = scoreMessage(suggestions.index, example);
      const own = scores.find((s) => s.doc === doc)?.score ?? 0;
      const best = scores[0];
      if (!best || best.doc === doc || best.score <= own) continue;
      const other = suggestions.rules[best.doc]!;
      warnings.push(
        problemAt(
          locate(rule.order, ['examples', i]),
          `example ${JSON.stringify(example)} of rule '${rule.id}' is closer to rule '${other.id}' (${position(other)}): when unsure, '${other.id}' is suggested before it; give the rules words that tell them apart`,
          'warning',
        ),
      );
    }
  }
  const languages = ruleSet.languages?.supported ?? [undefined];
  for (const language of languages) {
    const seen = new Map<string, CompiledRule>();
    for (const rule of suggestions.rules) {
      const label = suggestionLabel(rule, language);
      const key = normalize(label);
      const first = seen.get(key);
      if (!first) {
        seen.set(key, rule);
        continue;
      }
      const where = rule.label ? ['label'] : rule.examples.length > 0 ? ['examples', 0] : [];
      const inLanguage = language ? ` in '${language}'` : '';
      warnings.push(
        problemAt(
          locate(rule.order, where),
          `rule '${rule.id}' is suggested as ${JSON.stringify(label)}${inLanguage}, like rule '${first.id}' (${position(first)}): users cannot tell the two buttons apart; give one another label`,
          'warning',
        ),
      );
    }
  }
  return warnings;
}
