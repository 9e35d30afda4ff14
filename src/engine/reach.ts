// What decide adds to reach more people: the conditions that depend on who writes and how (`lang`, the user's
// language; `mentioned`, the bot named or replied to), typo-tolerant matching (an exact match always wins),
// and the rules that answer members joining or leaving a group.
import type { Message } from '@grammyjs/types';
import type { WhenCheck } from './conditions.js';
import { conditionsPass } from './conditions.js';
import type { Decision, DecideContext } from './decide-types.js';
import type { MemberEvent } from './events.js';
import { correctText } from './fuzzy.js';
import { resolveLanguage } from './languages.js';
import { botMentionSpans, matchPrepared, prepareMessage, type MatchResult } from './match.js';
import type { RuleSet } from './rule-set.js';
import { variablesOf, type ConversationState } from './state.js';
import { openHolds } from './time-settings.js';
import { conditionsHold, type VariableValues } from './variables.js';

/** The language `from` is answered in under these rules (undefined when they declare no languages). */
export function languageFor(ruleSet: RuleSet, from: Message['from'], state: Pick<ConversationState, 'user'>): string | undefined {
  return resolveLanguage(ruleSet.languages, from, state.user);
}

/** Whether the message names the bot (@its_username, any case) or replies to one of the bot's messages. */
export function mentionsBot(message: Message, botUsername: string): boolean {
  if (message.reply_to_message?.from?.username?.toLowerCase() === botUsername.toLowerCase()) return true;
  return botMentionSpans(message.text ?? '', message.entities, botUsername).length > 0;
}

/** The check of a rule's `when`, `open`, `lang` and `mentioned` for one message, on the conversation's variables, at `now`. */
export function audienceCheck(message: Message, values: VariableValues, language: string | undefined, botUsername: string, now: number): WhenCheck {
  let mentioned: boolean | undefined;
  return (rule) => {
    if (!openHolds(rule.open, now)) return false;
    if (rule.lang && (language === undefined || !rule.lang.has(language))) return false;
    if (rule.mentioned && !(mentioned ??= mentionsBot(message, botUsername))) return false;
    return conditionsHold(rule.when, values, now);
  };
}

/**
 * The rule for a message, tolerating typos: when fuzzy rules exist and the message is no command, its words
 * are also corrected towards theirs (ties broken by `language`, the user's), and a fuzzy rule the corrected
 * message reaches answers in its place in the order: before any rule after it that matches exactly, after
 * any before it. An exact match beats a corrected one only at the same position. A fallback answers only
 * when neither reached a rule.
 */
export function matchTolerant(
  message: Message,
  ruleSet: RuleSet,
  botUsername: string,
  whenHolds: WhenCheck,
  index = ruleSet.index,
  language?: string,
): MatchResult | null {
  const prepared = prepareMessage(message, botUsername, index.needsExact);
  if (!prepared || prepared.notForUs) return null;
  const exact = matchPrepared(prepared, index, whenHolds);
  const fuzzy = index.fuzzy;
  if (!fuzzy || prepared.command || prepared.text.startsWith('/')) return exact;
  const before = exact && exact.rule.trigger.kind !== 'fallback' ? exact.rule.order : Infinity;
  if (fuzzy.firstOrder >= before) return exact;
  const { text, corrections } = correctText(fuzzy, prepared.plain, language);
  if (corrections.length === 0) return exact;
  const tolerant = matchPrepared({ ...prepared, plain: text, exact: undefined }, index, whenHolds, true, before);
  return tolerant ? { rule: tolerant.rule, via: { kind: 'corrected', corrections } } : exact;
}

/** The chat variable that remembers the latest member changes, so one that arrives twice is answered once. */
export const MEMBER_CHANGES_VARIABLE = '_member_changes';
const REMEMBERED_CHANGES = 20;
/** The service message and the chat_member update of one change carry the same date, give or take. */
const SAME_CHANGE_SECONDS = 60;

/**
 * Members joined or left: the first `event` rule for it whose conditions hold answers, once per member
 * (the bot itself joining is not greeted), with {{user.*}} the member. A bot that asks for chat_member gets
 * a change twice, as the group's service message and as a chat_member update: the chat remembers its latest
 * member changes (`_member_changes`) and the second copy, the same change of the same member shortly after,
 * is not answered again.
 */
export function decideMember(
  event: MemberEvent,
  ruleSet: RuleSet,
  state: ConversationState,
  context: DecideContext,
  answer: (match: MatchResult, message: Message) => Decision,
): Decision {
  const rules = ruleSet.index.events.get(event.kind) ?? [];
  if (rules.length === 0) return { ruleId: null, actions: [] };
  const changes = rememberedChanges(state.chat[MEMBER_CHANGES_VARIABLE]);
  const change = event.kind === 'member_joined' ? 'j' : 'l';
  const actions: Decision['actions'][number][] = [];
  let ruleId: string | null = null;
  let remembered = false;
  const base = event.message ?? ({ message_id: 0, date: event.date, chat: event.chat } as Message);
  for (const member of event.members) {
    if (member.is_bot && member.username?.toLowerCase() === context.botUsername.toLowerCase()) continue;
    if (isRepeat(changes, member.id, change, event.date)) continue;
    changes.push({ id: member.id, change, date: event.date });
    remembered = true;
    const message = { ...base, from: member } as Message;
    const language = languageFor(ruleSet, member, state);
    const whenHolds = audienceCheck(message, variablesOf(state), language, context.botUsername, (context.now ?? Date.now)());
    const rule = rules.find((candidate) => conditionsPass(candidate, message, whenHolds));
    if (!rule) continue;
    const decision = answer({ rule }, message);
    ruleId ??= decision.ruleId;
    // A member added by someone else: what the rule remembers of the member is the added member's.
    const other = member.id !== event.from?.id;
    actions.push(
      ...decision.actions.map((action) => (other && action.type === 'set_state' && action.scope === 'member' ? { ...action, userId: member.id } : action)),
    );
  }
  if (remembered) {
    const value = changes
      .slice(-REMEMBERED_CHANGES)
      .map((c) => `${c.id}:${c.change}:${c.date}`)
      .join(' ');
    actions.unshift({ type: 'set_state', scope: 'chat', key: MEMBER_CHANGES_VARIABLE, value });
  }
  return { ruleId, actions };
}

interface MemberChange {
  id: number;
  change: 'j' | 'l';
  date: number;
}

function rememberedChanges(value: unknown): MemberChange[] {
  if (typeof value !== 'string') return [];
  return value
    .split(' ')
    .map((entry) => entry.split(':'))
    .filter((parts) => parts.length === 3 && (parts[1] === 'j' || parts[1] === 'l'))
    .map(([id, change, date]) => ({ id: Number(id), change: change as 'j' | 'l', date: Number(date) }));
}

/** The member's latest remembered change is this one, shortly before: the same change seen the other way. */
function isRepeat(changes: readonly MemberChange[], id: number, change: 'j' | 'l', date: number): boolean {
  const latest = changes.findLast((c) => c.id === id);
  return latest !== undefined && latest.change === change && Math.abs(date - latest.date) <= SAME_CHANGE_SECONDS;
}
