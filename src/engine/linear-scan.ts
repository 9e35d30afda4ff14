// The reference matcher: tries every rule in order, with no index. Tests prove the indexed
// matchMessage gives exactly the same answer (for rules without synonyms or forms); the benchmark uses it
// as the naive baseline.
import type { Message } from '@grammyjs/types';
import { conditionsPass, WHEN_ON_EMPTY_STATE, type WhenCheck } from './conditions.js';
import { containsKeyword } from './keywords.js';
import { prepareMessage, resultFor, type MatchResult } from './match.js';
import type { RuleSet } from './rule-set.js';

export function matchLinear(message: Message, rules: RuleSet, botUsername: string, whenHolds: WhenCheck = WHEN_ON_EMPTY_STATE): MatchResult | null {
  const prepared = prepareMessage(message, botUsername, true);
  if (!prepared || prepared.notForUs) return null;
  for (const rule of rules.rules) {
    if (!conditionsPass(rule, message, whenHolds)) continue;
    const t = rule.trigger;
    const text = rule.caseSensitive ? prepared.exact! : prepared.folded;
    const hit =
      (t.kind === 'command' && prepared.command?.name === t.name) ||
      (t.kind === 'text' && text === t.text) ||
      (t.kind === 'keywords' && (t.keywords.some((k) => containsKeyword(text, k)) || t.all.some((g) => g.words.every((w) => containsKeyword(text, w))))) ||
      (t.kind === 'pattern' && t.pattern.test(prepared.patternInput));
    if (hit) return resultFor(rule, prepared);
  }
  for (const rule of rules.rules) {
    if (rule.trigger.kind === 'fallback' && conditionsPass(rule, message, whenHolds)) return { rule };
  }
  return null;
}
