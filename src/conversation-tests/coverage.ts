// `hearsay test --coverage`: which rules, flow steps and flow endings no test reached, with the position
// of each in the rule files, so an operator sees what the tests leave unchecked.
import type { RuleSet } from '../engine/rule-set.js';
import type { DecisionRecord } from './driver.js';

/** Something a test can reach, and where it is written. */
export interface CoverageItem {
  readonly kind: 'rule' | 'flow' | 'flow step' | 'flow ending';
  /** As decisions name it: `greet`, `booking`, `booking#date`, `booking#done`. */
  readonly id: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export class CoverageTracker {
  private readonly reached = new Set<string>();

  /** Notes what one decision reached. */
  record(decision: DecisionRecord): void {
    if (decision.ruleId !== null) this.reached.add(decision.ruleId);
    for (const step of decision.stepsAsked) this.reached.add(step);
  }

  /** Everything in the rule set, and which of it no test reached. */
  report(ruleSet: RuleSet): { items: CoverageItem[]; unreached: CoverageItem[] } {
    const items = coverageItems(ruleSet);
    return { items, unreached: items.filter((item) => !this.reached.has(item.id)) };
  }
}

function coverageItems(ruleSet: RuleSet): CoverageItem[] {
  const items: CoverageItem[] = [];
  for (const rule of ruleSet.rules) {
    items.push({ kind: rule.startsFlow !== undefined ? 'flow' : 'rule', id: rule.id, file: rule.file, line: rule.line, column: rule.column });
    const flow = rule.startsFlow !== undefined ? ruleSet.flows.get(rule.startsFlow) : undefined;
    if (!flow) continue;
    const at = { file: flow.file, line: flow.line, column: flow.column };
    for (const step of flow.steps) items.push({ kind: 'flow step', id: `${flow.id}#${step.id}`, ...at });
    items.push({ kind: 'flow ending', id: `${flow.id}#done`, ...at });
    if (flow.cancel) items.push({ kind: 'flow ending', id: `${flow.id}#cancel`, ...at });
    if (flow.timeout) items.push({ kind: 'flow ending', id: `${flow.id}#timeout`, ...at });
  }
  return items;
}
