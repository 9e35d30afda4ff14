// Check-time warnings about buttons: a button whose data no callback rule answers (its press would only
// stop spinning), and `examples:` of a callback rule (sample data) that another callback rule takes first.
import { problemAt, type RuleLocator, type RuleProblem } from '../diagnostics/problem.js';
import { callbackCaptures } from '../engine/callbacks.js';
import type { CompiledRule, RuleSet } from '../engine/rule-set.js';

/** Every warning of this module, in no particular order (the loader sorts). */
export function buttonWarnings(ruleSet: RuleSet, locate: RuleLocator): RuleProblem[] {
  return [...unansweredData(ruleSet, locate), ...callbackExampleWarnings(ruleSet, locate)];
}

/** The first callback rule whose pattern finds `data`, judged as if every condition held (a rule that may answer is enough). */
function answering(ruleSet: RuleSet, data: string): CompiledRule | undefined {
  return ruleSet.callbacks.find((rule) => callbackCaptures(rule, data) !== undefined);
}

function unansweredData(ruleSet: RuleSet, locate: RuleLocator): RuleProblem[] {
  const warnings: RuleProblem[] = [];
  for (const rule of ruleSet.rules) {
    rule.buttons?.rows.forEach((row, r) =>
      row.forEach((button, c) => {
        // Data with placeholders is known only when sent.
        if (!button.data?.isStatic) return;
        const data = button.data.source;
        if (answering(ruleSet, data)) return;
        warnings.push(
          problemAt(
            locate(rule.order, ['buttons', r, c, 'data']),
            `no callback rule answers the data ${JSON.stringify(data)} of button ${JSON.stringify(button.text.source)} in rule '${rule.id}': a press would only stop the button spinning (add a rule with \`callback: '^${data.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$'\`)`,
            'warning',
          ),
        );
      }),
    );
  }
  return warnings;
}

function callbackExampleWarnings(ruleSet: RuleSet, locate: RuleLocator): RuleProblem[] {
  const warnings: RuleProblem[] = [];
  for (const rule of ruleSet.callbacks) {
    for (const [i, example] of rule.examples.entries()) {
      const first = answering(ruleSet, example);
      if (first === rule) continue;
      const why = first ? `rule '${first.id}' at ${first.file}:${first.line}:${first.column} answers it first` : 'its pattern does not match it';
      warnings.push(
        problemAt(locate(rule.order, ['examples', i]), `example data ${JSON.stringify(example)} does not reach rule '${rule.id}': ${why}`, 'warning'),
      );
    }
  }
  return warnings;
}
