// Check-time warnings about variables and flows that need the whole rule set: a variable read (in a
// template or a `when`) that no rule or flow ever sets, and a step whose answers are all taken first by
// the flow's cancel or by a during_flows rule, so nothing can satisfy it.
import type { Chat, Message } from '@grammyjs/types';
import { problemAt, type RuleLocator, type RuleProblem, type SourcePosition } from '../diagnostics/problem.js';
import type { FlowSource } from '../engine/compile-flows.js';
import { containsKeyword } from '../engine/keywords.js';
import { matchMessage } from '../engine/match.js';
import { normalize } from '../engine/normalize.js';
import type { CompiledFlow, CompiledRule, RuleSet } from '../engine/rule-set.js';
import type { Template } from '../engine/template.js';
import type { CompiledAssignment, CompiledCondition } from '../engine/variables.js';
import { KEPT_MEMBER_VARIABLES } from '../engine/member-counts.js';
import { HANDOFF_VARIABLE } from '../engine/handoff.js';

/** Every warning of this module, in no particular order (the loader sorts). */
export function flowWarnings(ruleSet: RuleSet, locate: RuleLocator, flows: readonly FlowSource[]): RuleProblem[] {
  const sources = new Map(flows.map((f) => [f.flow.id, f]));
  return [...unsetVariableWarnings(ruleSet, locate, sources), ...unanswerableStepWarnings(ruleSet, sources)];
}

interface Reference {
  scope: 'user' | 'chat' | 'member';
  key: string;
  /**
   * Where it is written, asked only for a reference that becomes a warning: placing a position other than a rule's
   * own makes the loader build the file's YAML node tree, which a clean file's fast read skips (BENCHMARKS.md, "Issue
   * 38, ninth pass": asked for every reply, it kept ~17 MB of node trees alive with 10,000 rules).
   */
  at: () => SourcePosition;
  /** How the reference is written, for the message. */
  written: string;
}

function templateRefs(template: Template | null, at: () => SourcePosition, out: Reference[]): void {
  for (const part of template?.parts ?? []) {
    if (typeof part !== 'string' && part.kind === 'var') out.push({ scope: part.scope, key: part.key, at, written: `{{var.${part.scope}.${part.key}}}` });
  }
}

function conditionRefs(conditions: readonly CompiledCondition[] | null, at: (key: string) => SourcePosition, where: string, out: Reference[]): void {
  for (const c of conditions ?? []) {
    if (c.scope === 'flow') continue;
    out.push({ scope: c.scope, key: c.key, at: () => at(`${c.scope}.${c.key}`), written: `'${c.scope}.${c.key}' in the \`when\` of ${where}` });
  }
}

function assignmentRefs(set: readonly CompiledAssignment[], at: (key: string) => SourcePosition, out: Reference[], written: Set<string>): void {
  for (const a of set) {
    written.add(`${a.scope}.${a.key}`);
    if (a.kind === 'template') templateRefs(a.template, () => at(`${a.scope}.${a.key}`), out);
  }
}

function unsetVariableWarnings(ruleSet: RuleSet, locate: RuleLocator, sources: ReadonlyMap<string, FlowSource>): RuleProblem[] {
  const refs: Reference[] = [];
  // hearsay keeps these itself (the hand-off's, which `when: { handoff: true }` reads, too).
  const written = new Set<string>([...KEPT_MEMBER_VARIABLES.map((name) => `member.${name}`), `user.${HANDOFF_VARIABLE}`]);
  for (const rule of ruleSet.rules) {
    const name = rule.startsFlow ? `the start of flow '${rule.startsFlow}'` : `rule '${rule.id}'`;
    if (!rule.startsFlow) rule.replies.forEach((t, i) => templateRefs(t, () => locate(rule.order, rule.replies.length > 1 ? ['reply', i] : ['reply']), refs));
    templateRefs(rule.answer, () => locate(rule.order, ['answer']), refs);
    templateRefs(rule.edit, () => locate(rule.order, ['edit']), refs);
    rule.buttons?.rows.forEach((row, r) =>
      row.forEach((button, c) => {
        for (const [key, template] of Object.entries(button)) templateRefs(template as Template, () => locate(rule.order, ['buttons', r, c, key]), refs);
      }),
    );
    conditionRefs(rule.when, (key) => locate(rule.order, ['when', key]), name, refs);
    assignmentRefs(rule.set, (key) => locate(rule.order, ['set', key]), refs, written);
  }
  for (const flow of ruleSet.flows.values()) {
    const at = sources.get(flow.id)!.locate;
    flow.steps.forEach((step, i) => {
      templateRefs(step.ask, () => at(['steps', i, 'ask']), refs);
      templateRefs(step.retry, () => at(['steps', i, 'retry']), refs);
    });
    flow.done.forEach((branch, i) => {
      conditionRefs(branch.when, (key) => at(['done', i, 'when', key]), `done branch #${i + 1} of flow '${flow.id}'`, refs);
      assignmentRefs(branch.set, (key) => at(['done', i, 'set', key]), refs, written);
      templateRefs(branch.reply, () => at(['done', i, 'reply']), refs);
    });
    templateRefs(flow.cancel?.reply ?? null, () => at(['cancel', 'reply']), refs);
    templateRefs(flow.timeout?.reply ?? null, () => at(['timeout', 'reply']), refs);
  }
  return refs
    .filter((ref) => !written.has(`${ref.scope}.${ref.key}`))
    .map((ref) =>
      problemAt(
        ref.at(),
        `${ref.written}: no rule or flow sets ${ref.scope}.${ref.key}, so it never has a value (set it with \`set:\`, or check the name)`,
        'warning',
      ),
    );
}

/** Who answers `text` before a step of `flow` can: its cancel, or a during_flows rule; undefined when the step gets it. */
function takenBy(flow: CompiledFlow, text: string, ruleSet: RuleSet): string | undefined {
  const folded = normalize(text);
  if (flow.cancel?.keywords.some((k) => containsKeyword(folded, k))) return `it cancels the flow`;
  const chat = { id: 1, type: 'private', first_name: 'Example' } as Chat;
  const message = { message_id: 1, date: 0, chat, from: { id: 1, is_bot: false, first_name: 'Example' }, text } as Message;
  // Judged as if every `when` held: a rule that may answer is enough to take the word some of the time.
  const rule: CompiledRule | undefined = matchMessage(message, { index: ruleSet.duringFlowsIndex }, 'example_bot', () => true)?.rule;
  return rule ? `rule '${rule.id}' (during_flows) at ${rule.file}:${rule.line}:${rule.column} answers it first` : undefined;
}

function unanswerableStepWarnings(ruleSet: RuleSet, sources: ReadonlyMap<string, FlowSource>): RuleProblem[] {
  const warnings: RuleProblem[] = [];
  const anyText = ruleSet.duringFlowsIndex.fallbacks[0];
  for (const flow of ruleSet.flows.values()) {
    const at = sources.get(flow.id)!.locate;
    flow.steps.forEach((step, i) => {
      const where = `step '${step.id}' of flow '${flow.id}'`;
      if (anyText) {
        warnings.push(
          problemAt(at(['steps', i]), `${where} can never be answered: the during_flows fallback '${anyText.id}' takes every message first`, 'warning'),
        );
        return;
      }
      if (step.accept.kind !== 'choice') return;
      const byOption = new Map<string, string[]>();
      for (const [word, option] of step.accept.options) byOption.set(option, [...(byOption.get(option) ?? []), word]);
      let open = 0;
      for (const [option, words] of byOption) {
        const reasons = words.map((w) => takenBy(flow, w, ruleSet));
        if (reasons.some((r) => r === undefined)) {
          open++;
          continue;
        }
        warnings.push(
          problemAt(
            at(['steps', i, 'accept', 'choice', option]),
            `option '${option}' of ${where} can never be chosen: for '${words[0]}', ${reasons[0]}`,
            'warning',
          ),
        );
      }
      if (open === 0 && byOption.size > 0)
        warnings.push(problemAt(at(['steps', i]), `${where} can never be answered: none of its options can be chosen`, 'warning'));
    });
  }
  return warnings;
}
