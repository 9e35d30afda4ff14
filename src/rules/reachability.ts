// Check-time warnings about order: rules that can never fire because an earlier rule with the same
// trigger always answers first, and `examples:` that do not reach their own rule.
import type { Chat, Message } from '@grammyjs/types';
import { matchTolerant } from '../engine/reach.js';
import type { CompiledRule, RuleSet } from '../engine/rule-set.js';
import { problemAt, type RuleLocator, type RuleProblem } from '../diagnostics/problem.js';

export function reachabilityWarnings(ruleSet: RuleSet, locate: RuleLocator): RuleProblem[] {
  return [...shadowedRules(ruleSet, locate), ...exampleWarnings(ruleSet, locate)];
}

function place(rule: CompiledRule): string {
  return `${rule.file}:${rule.line}:${rule.column}`;
}

/** What a rule is called in a warning: a flow's start is named by its flow. */
function label(rule: CompiledRule): string {
  return rule.startsFlow ? `flow '${rule.startsFlow}'` : `rule '${rule.id}'`;
}

/** Whether every message `later` accepts by its conditions is also accepted by `earlier` (a `when` may not hold, so it covers nothing). */
function covers(earlier: CompiledRule, later: CompiledRule): boolean {
  if (earlier.when || earlier.open) return false;
  const subset = <T>(a: ReadonlySet<T> | null, b: ReadonlySet<T> | null) => a === null || (b !== null && [...b].every((x) => a.has(x)));
  return subset(earlier.chatTypes, later.chatTypes) && subset(earlier.chats, later.chats);
}

function shadowedRules(ruleSet: RuleSet, locate: RuleLocator): RuleProblem[] {
  const warnings: RuleProblem[] = [];
  const byKey = new Map<string, CompiledRule[]>();
  const keywordOwners = new Map<string, CompiledRule[]>();
  for (const rule of ruleSet.rules) {
    const t = rule.trigger;
    const keys =
      t.kind === 'command'
        ? [`command:${t.name}`]
        : t.kind === 'text'
          ? [`text:${rule.caseSensitive ? 'exact' : 'folded'}:${t.text}`]
          : t.kind === 'fallback'
            ? ['fallback']
            : [];
    for (const key of keys) {
      const earlier = byKey.get(key)?.find((e) => covers(e, rule));
      if (earlier) {
        const what = t.kind === 'fallback' ? 'fallback' : `${t.kind} trigger`;
        const field = t.kind === 'fallback' ? 'fallback' : t.kind;
        warnings.push(
          problemAt(
            locate(rule.order, [field]),
            `${label(rule)} can never ${rule.startsFlow ? 'start' : 'fire'}: ${label(earlier)} at ${place(earlier)} has the same ${what} and comes first`,
            'warning',
          ),
        );
      }
      const same = byKey.get(key);
      if (same) same.push(rule);
      else byKey.set(key, [rule]);
    }
    if (t.kind === 'keywords') {
      const shadows = t.keywords.map((k) => keywordOwners.get(`${rule.caseSensitive}:${k}`)?.find((e) => covers(e, rule)));
      if (shadows.every((s) => s !== undefined)) {
        const names = [...new Set(shadows.map((s) => `${label(s!)} at ${place(s!)}`))].join(', ');
        warnings.push(
          problemAt(
            locate(rule.order, ['keywords']),
            `${label(rule)} can never ${rule.startsFlow ? 'start' : 'fire'}: every one of its keywords belongs to an earlier rule (${names})`,
            'warning',
          ),
        );
      }
      for (const k of t.keywords) {
        const key = `${rule.caseSensitive}:${k}`;
        const owners = keywordOwners.get(key);
        if (owners) owners.push(rule);
        else keywordOwners.set(key, [rule]);
      }
    }
  }
  return warnings;
}

function exampleWarnings(ruleSet: RuleSet, locate: RuleLocator): RuleProblem[] {
  const warnings: RuleProblem[] = [];
  // With `suggest` (when_unmatched), an example no trigger catches is offered as a suggestion of its rule, so
  // "only the fallback answers it" is no fault; check-suggest.ts warns when another rule outscores it there.
  const suggested = new Set(ruleSet.suggestions?.settings.whenUnmatched ? ruleSet.suggestions.rules : []);
  for (const rule of ruleSet.rules) {
    // A callback rule's examples are button data (check-buttons.ts), not messages.
    if (rule.trigger.kind === 'callback') continue;
    for (const [i, example] of rule.examples.entries()) {
      const target = /^\/\w+@(\w+)/.exec(example)?.[1] ?? 'example_bot';
      // Judged as if this rule's `when` held and no other rule's did (typos tolerated as at run time): an example shows the rule can answer.
      const result = matchTolerant(exampleMessage(rule, example), ruleSet, target, (other) => other === rule);
      if (result?.rule === rule) continue;
      if (suggested.has(rule) && (!result || result.rule.trigger.kind === 'fallback')) continue;
      const quoted = JSON.stringify(example);
      const why = !result
        ? 'no rule matches it'
        : result.rule.trigger.kind === 'fallback'
          ? `only the fallback '${result.rule.id}' answers it`
          : `${label(result.rule)} at ${place(result.rule)} answers it first`;
      const reach = rule.startsFlow ? `start flow '${rule.startsFlow}'` : `reach rule '${rule.id}'`;
      warnings.push(problemAt(locate(rule.order, ['examples', i]), `example ${quoted} does not ${reach}: ${why}`, 'warning'));
    }
  }
  return warnings;
}

/** A message as the rule's own conditions would accept it. */
function exampleMessage(rule: CompiledRule, text: string): Message {
  const type = (rule.chatTypes ? [...rule.chatTypes][0] : 'private') as Chat['type'];
  const id = rule.chats ? [...rule.chats][0]! : type === 'private' ? 1 : -1;
  const chat = (type === 'private' ? { id, type, first_name: 'Example' } : { id, type, title: 'Example' }) as Chat;
  return { message_id: 1, date: 0, chat, from: { id: 1, is_bot: false, first_name: 'Example' }, text } as Message;
}
