// Which keyword of a keywords rule a message holds, for the decision's "why" (`keyword: refund`): found again in
// the one rule that answered, as its index found it (normalised, synonyms applied), so matching itself stays lean.
import type { Message } from '@grammyjs/types';
import { containsKeyword } from './keywords.js';
import { prepareMessage } from './match.js';
import type { CompiledRule, RuleSet } from './rule-set.js';
import { applySynonyms } from './synonyms.js';

/** The first of the rule's keywords the message holds as whole words; undefined for another trigger, or when none is found as written (a corrected typo). */
export function keywordFound(rule: CompiledRule, message: Message, ruleSet: Pick<RuleSet, 'index'>, botUsername: string): string | undefined {
  if (rule.trigger.kind !== 'keywords') return undefined;
  const prepared = prepareMessage(message, botUsername, rule.caseSensitive);
  if (!prepared) return undefined;
  const text = rule.caseSensitive ? prepared.exact! : applySynonyms(prepared.folded, ruleSet.index.synonyms);
  return rule.trigger.keywords.find((keyword) => containsKeyword(text, keyword));
}
