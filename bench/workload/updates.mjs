// Generates the bench workloads: N updates from private chats (text messages, and for
// the presses workload button presses), drawn from a fixed seed to hit command, text,
// pattern, keyword and button rules and the fallback, plus the expected reply of each
// computed by the reference matcher.
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

/** The chat an update belongs to: a message's chat, or the chat of the message whose button was pressed. */
export function chatOfUpdate(update) {
  return (update.message ?? update.callback_query.message).chat.id;
}

/**
 * A press of an inline button under an earlier bot message, as the service sends it; its id
 * is derived from the update_id so the stand-in can pair the answerCallbackQuery with it.
 */
export function buildCallbackQuery(data, chatId, updateId, date = 1_700_000_000) {
  const user = { id: chatId, is_bot: false, first_name: `User${chatId}` };
  const message = {
    message_id: 1,
    date,
    chat: { id: chatId, type: 'private', first_name: user.first_name },
    from: { ...BENCH_BOT, is_bot: true },
    text: 'menu',
  };
  return { id: `cq${updateId}`, from: user, message, chat_instance: `ci${chatId}`, data };
}

/**
 * The workloads. messages: text messages only. presses: half the updates are button presses
 * (callback_query, answered with answerCallbackQuery), on a rule set where one rule in ten is
 * a button. state: the messages workload, but every reply ends with " #n", n being the count of
 * that chat's updates so far, so each update reads and writes the chat's state.
 */
export const WORKLOADS = ['messages', 'presses', 'state'];

function pickKind(prng, byKind) {
  let roll = prng.next();
  for (const [kind, share] of MIX) {
    if (roll < share && byKind.has(kind)) return kind;
    roll -= share;
  }
  return 'fallback';
}

/**
 * @param {{ rules: object[], updates: number, chats?: number, seed?: number, kind?: string }} options
 * @returns {{ kind: string, updates: object[], expected: string[] }} `expected[i]` is the reply
 * text to updates[i] (the answerCallbackQuery text for a press); update_id = i + 1.
 */
export function buildWorkload({ rules, updates: count, chats = 200, seed = 42, kind: workloadKind = 'messages' }) {
  if (!WORKLOADS.includes(workloadKind)) throw new Error(`unknown workload ${workloadKind}; known: ${WORKLOADS.join(', ')}`);
  const prng = createPrng(seed);
  const byKind = new Map();
  for (const rule of rules) {
    if (!byKind.has(rule.kind)) byKind.set(rule.kind, []);
    byKind.get(rule.kind).push(rule);
  }
  if (workloadKind === 'presses' && !byKind.has('button')) throw new Error('the presses workload needs a rule set with buttons');
  const reference = createReferenceMatcher(rules, BENCH_BOT.username);
  const updates = new Array(count);
  const expected = new Array(count);
  const messageIds = new Map();
  const perChatCount = new Map();
  // Texts repeat (commands without arguments, text triggers); the naive scan is slow on big sets.
  const memo = new Map();
  for (let i = 0; i < count; i += 1) {
    // Draw order kept as before the presses workload existed, so the messages stream is unchanged.
    if (workloadKind === 'presses' && prng.next() < 0.5) {
      const button = prng.pick(byKind.get('button'));
      const chatId = 100000 + prng.int(chats);
      updates[i] = { update_id: i + 1, callback_query: buildCallbackQuery(button.data, chatId, i + 1) };
      expected[i] = reference.matchPress(button.data).reply;
      continue;
    }
    const kind = pickKind(prng, byKind);
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
    if (workloadKind === 'state') {
      const n = (perChatCount.get(chatId) ?? 0) + 1;
      perChatCount.set(chatId, n);
      expected[i] = `${result.reply} #${n}`;
    }
  }
  return { kind: workloadKind, updates, expected };
}

/** The first `count` updates of a workload (contestants too slow for the full run get a prefix of the same stream). */
export function sliceWorkload(workload, count) {
  if (count >= workload.updates.length) return workload;
  return { ...workload, updates: workload.updates.slice(0, count), expected: workload.expected.slice(0, count) };
}
