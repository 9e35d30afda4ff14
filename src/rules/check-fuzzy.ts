// Check-time warnings for typo tolerance: keywords (and text and `all` words) of different fuzzy rules that
// are within a typo of each other, so a typo between them is ambiguous (it goes to neither) and a typo of one
// may be the other's exact word. Two forms of one word in two `forms: auto` rules are no typo of each other
// (the rules match both alike). Found through the rule set's fuzzy index, so the cost stays flat in the rule count.
import { problemAt, type RuleLocator, type RuleProblem } from '../diagnostics/problem.js';
import { similarWords } from '../engine/fuzzy.js';
import { wordsOf } from '../engine/keywords.js';
import type { CompiledRule, RuleSet } from '../engine/rule-set.js';

export function fuzzyWarnings(ruleSet: RuleSet, locate: RuleLocator): RuleProblem[] {
  const index = ruleSet.index.fuzzy;
  if (!index) return [];
  const owners = new Map<string, CompiledRule>();
  for (const rule of ruleSet.rules) {
    if (!rule.fuzzy) continue;
    for (const word of triggerWords(rule)) if (!owners.has(word)) owners.set(word, rule);
  }
  const warnings: RuleProblem[] = [];
  const reported = new Set<string>();
  for (const [word, rule] of owners) {
    for (const other of similarWords(index, word)) {
      const otherRule = owners.get(other);
      if (!otherRule || otherRule === rule) continue;
      if (rule.forms && otherRule.forms && ruleSet.index.forms.some((view) => view.forms.stem(word) === view.forms.stem(other))) continue;
      const pair = [word, other].sort().join('\u0000');
      if (reported.has(pair)) continue;
      reported.add(pair);
      const [later, laterWord, earlier, earlierWord] = rule.order > otherRule.order ? [rule, word, otherRule, other] : [otherRule, other, rule, word];
      warnings.push(
        problemAt(
          locate(later.order, [triggerField(later)]),
          `'${laterWord}' of rule '${later.id}' is within a typo of '${earlierWord}' of rule '${earlier.id}' (${earlier.file}:${earlier.line}:${earlier.column}): with fuzzy matching a misspelling may reach the wrong one, and one as close to both reaches neither; turn fuzzy off for one of them or choose other words`,
          'warning',
        ),
      );
    }
  }
  return warnings;
}

function triggerWords(rule: CompiledRule): string[] {
  const t = rule.trigger;
  if (t.kind === 'text') return wordsOf(t.text).map((w) => w.word);
  if (t.kind === 'keywords') return [...t.keywords, ...t.all.flatMap((g) => g.words)].flatMap((keyword) => wordsOf(keyword).map((w) => w.word));
  return [];
}

/** The key of a rule's word trigger, where its warnings are placed. */
function triggerField(rule: CompiledRule): string {
  const t = rule.trigger;
  return t.kind === 'text' ? 'text' : t.kind === 'keywords' && t.keywords.length === 0 ? 'all' : 'keywords';
}
