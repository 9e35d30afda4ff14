// Generates the bench workload: N text-message updates from private chats, with
// texts drawn from a fixed seed to hit command, text, pattern and keyword rules and
// the fallback, plus the expected reply of each computed by the reference matcher.
import { createPrng } from './prng.mjs';
import { createReferenceMatcher } from './reference-matcher.mjs';

export const BENCH_BOT = { id: 7000001, username: 'hearsay_bench_bot', first_name: 'Bench' };

/** Share of messages aimed at each kind; the rest go to the fallback. */
const MIX = [
  ['command', 0.3],
  ['text', 0.25],
  ['keywords', 0.2],
  ['pattern', 0.15],
];

const FILLER = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog'];

/** A message text aimed at `rule` (of `kind`); any text for the fallback. */
export function messageFor(kind, rule, prng) {
  switch (kind) {
    case 'command':
      return prng.int(3) === 0 ? `/${rule.command} some args ${prng.int(1000)}` : `/${rule.command}`;
    case 'text':
      return rule.text;
    case 'keywords': {
      const word = prng.pick(rule.keywords);
      return `${prng.pick(FILLER)} ${word} ${prng.pick(FILLER)}`;
    }
    case 'pattern':
      return `${rule.pattern.slice(1, rule.pattern.indexOf('\\'))} ${prng.int(100000)}`;
    default: {
      const words = Array.from({ length: 3 + prng.int(4) }, () => prng.pick(FILLER));
      return words.join(' ');
    }
  }
}

/** A private-chat text message as the service sends it, with the bot_command entity for commands. */
export function buildMessage(text, chatId, messageId, date = 1_700_000_000) {
  const user = { id: chatId, is_bot: false, first_name: `User${chatId}` };
  const message = { message_id: messageId, date, chat: { id: chatId, type: 'private', first_name: user.first_name }, from: user, text };
  if (text.startsWith('/')) {
    const end = text.indexOf(' ');
    message.entities = [{ type: 'bot_command', offset: 0, length: end === -1 ? text.length : end }];
  }
  return message;
}

/**
 * @returns {{ updates: object[], expected: string[] }} `expected[i]` is the reply text
 * to updates[i]; update_id = i + 1.
 */
export function buildWorkload({ rules, updates: count, chats = 200, seed = 42 }) {
  const prng = createPrng(seed);
  const byKind = new Map();
  for (const rule of rules) {
    if (!byKind.has(rule.kind)) byKind.set(rule.kind, []);
    byKind.get(rule.kind).push(rule);
  }
  const reference = createReferenceMatcher(rules, BENCH_BOT.username);
  const updates = new Array(count);
  const expected = new Array(count);
  const messageIds = new Map();
  // Texts repeat (commands without arguments, text triggers); the naive scan is slow on big sets.
  const memo = new Map();
  for (let i = 0; i < count; i += 1) {
    let roll = prng.next();
    let kind = 'fallback';
    for (const [k, share] of MIX) {
      if (roll < share && byKind.has(k)) {
        kind = k;
        break;
      }
      roll -= share;
    }
    const rule = kind === 'fallback' ? null : prng.pick(byKind.get(kind));
    const text = messageFor(kind, rule, prng);
    const chatId = 100000 + prng.int(chats);
    const messageId = (messageIds.get(chatId) ?? 0) + 1;
    messageIds.set(chatId, messageId);
    updates[i] = { update_id: i + 1, message: buildMessage(text, chatId, messageId) };
    let result = memo.get(text);
    if (result === undefined) {
      result = reference.match(text);
      memo.set(text, result);
    }
    if (!result) throw new Error(`workload message ${JSON.stringify(text)} matches no rule; the rule list needs a fallback`);
    expected[i] = result.reply;
  }
  return { updates, expected };
}
