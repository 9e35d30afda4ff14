// `hearsay test --coverage`: which rules, flow steps, flow endings and buttons no test reached, with the
// position of each in the rule files, so an operator sees what the tests leave unchecked. A rule's button
// is reached when a test pressed it on a message that rule sent (or edited); a choice button of a flow step
// when a test pressed that option's button.
import { choiceData } from '../engine/ask.js';
import type { CompiledRule, RuleSet } from '../engine/rule-set.js';
import type { DecisionRecord, PressRecord } from './driver.js';

/** Something a test can reach, and where it is written. */
export interface CoverageItem {
  readonly kind: 'rule' | 'flow' | 'flow step' | 'flow ending' | 'button';
  /**
   * As decisions name it: `greet`, `booking`, `booking#date`, `booking#done`; a button as its label and data
   * and what shows it: `"Park Café" (data vote:park) of poll`, `"yes" (data booking#confirm:0) of booking#confirm`.
   */
  readonly id: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

interface TrackedItem extends CoverageItem {
  /** What marks the item reached. */
  readonly key: string;
}

export class CoverageTracker {
  private readonly reached = new Set<string>();

  /** Notes what one decision reached. */
  record(decision: DecisionRecord): void {
    if (decision.ruleId !== null) this.reached.add(decision.ruleId);
    for (const step of decision.stepsAsked) this.reached.add(step);
  }

  /** Notes a pressed button: by its place on a rule's message, and by its data (a flow's choice buttons). */
  recordPress(press: PressRecord): void {
    if (press.sentBy !== null) this.reached.add(ruleButtonKey(press.sentBy, press.row, press.column));
    if (press.data !== undefined) this.reached.add(choiceKey(press.data));
  }

  /** Everything in the rule set, and which of it no test reached. */
  report(ruleSet: RuleSet): { items: CoverageItem[]; unreached: CoverageItem[] } {
    const tracked = coverageItems(ruleSet);
    const items = tracked.map(({ key: _key, ...item }) => item);
    return { items, unreached: items.filter((_, i) => !this.reached.has(tracked[i]!.key)) };
  }
}

const ruleButtonKey = (ruleId: string, row: number, column: number): string => `button ${ruleId} ${row} ${column}`;
const choiceKey = (data: string): string => `choice ${data}`;

function coverageItems(ruleSet: RuleSet): TrackedItem[] {
  const items: TrackedItem[] = [];
  for (const rule of ruleSet.rules) {
    const at = { file: rule.file, line: rule.line, column: rule.column };
    items.push({ kind: rule.startsFlow !== undefined ? 'flow' : 'rule', id: rule.id, key: rule.id, ...at }, ...ruleButtons(rule));
    const flow = rule.startsFlow !== undefined ? ruleSet.flows.get(rule.startsFlow) : undefined;
    if (!flow) continue;
    const flowAt = { file: flow.file, line: flow.line, column: flow.column };
    for (const step of flow.steps) items.push({ kind: 'flow step', id: `${flow.id}#${step.id}`, key: `${flow.id}#${step.id}`, ...flowAt });
    for (const ending of ['done', ...(flow.cancel ? ['cancel'] : []), ...(flow.timeout ? ['timeout'] : [])])
      items.push({ kind: 'flow ending', id: `${flow.id}#${ending}`, key: `${flow.id}#${ending}`, ...flowAt });
    for (const step of flow.steps) {
      if (step.accept.kind !== 'choice' || step.buttons !== 'inline') continue;
      for (const [i, choice] of step.accept.choices.entries()) {
        const data = choiceData(flow.id, step.id, i);
        items.push({ kind: 'button', id: `${JSON.stringify(choice)} (data ${data}) of ${flow.id}#${step.id}`, key: choiceKey(data), ...flowAt });
      }
    }
  }
  return items;
}

/** The buttons of a rule's `buttons` that send data (a link button only opens its link). */
function ruleButtons(rule: CompiledRule): TrackedItem[] {
  const at = { file: rule.file, line: rule.line, column: rule.column };
  return (rule.buttons?.rows ?? []).flatMap((buttons, row) =>
    buttons.flatMap((button, column) =>
      button.data
        ? [
            {
              kind: 'button' as const,
              id: `${JSON.stringify(button.text.source)} (data ${button.data.source}) of ${rule.id}`,
              key: ruleButtonKey(rule.id, row, column),
              ...at,
            },
          ]
        : [],
    ),
  );
}
