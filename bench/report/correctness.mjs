// Checks one run's replies against the expected ones, chat by chat: each reply is
// paired with the earliest unanswered update of its chat that expects that text.
// Unpaired replies are wrong (text never expected) or duplicates; unpaired updates are
// missing; a reply paired with an update older than an already-answered one breaks order.
import { chatOfUpdate } from '../workload/updates.mjs';

/**
 * @param {object[]} updates  the workload (update_id = index + 1)
 * @param {string[]} expected expected reply text per update
 * @param {{chatId:number, text:string, at:bigint}[]} replies in arrival order
 * @returns {{ pairs: {index:number, at:bigint}[], wrong:number, duplicates:number, missing:number, outOfOrder:number, ok:boolean, examples:string[] }}
 */
export function checkReplies(updates, expected, replies) {
  const waiting = new Map(); // chatId -> Map(text -> index[] queue)
  const expectedTexts = new Map(); // chatId -> Set(text)
  for (let i = 0; i < updates.length; i += 1) {
    const chat = chatOfUpdate(updates[i]);
    if (!waiting.has(chat)) {
      waiting.set(chat, new Map());
      expectedTexts.set(chat, new Set());
    }
    const byText = waiting.get(chat);
    if (!byText.has(expected[i])) byText.set(expected[i], []);
    byText.get(expected[i]).push(i);
    expectedTexts.get(chat).add(expected[i]);
  }
  const heads = new Map(); // queue read positions, keyed by the queue array
  const lastPaired = new Map(); // chatId -> highest update index answered so far
  const pairs = [];
  const examples = [];
  let wrong = 0;
  let duplicates = 0;
  let outOfOrder = 0;
  for (const reply of replies) {
    const queue = waiting.get(reply.chatId)?.get(reply.text);
    const head = queue ? (heads.get(queue) ?? 0) : 0;
    if (!queue || head >= queue.length) {
      if (expectedTexts.get(reply.chatId)?.has(reply.text)) duplicates += 1;
      else wrong += 1;
      if (examples.length < 5) examples.push(`chat ${reply.chatId}: unexpected reply ${JSON.stringify(reply.text)}`);
      continue;
    }
    const index = queue[head];
    heads.set(queue, head + 1);
    if (index < (lastPaired.get(reply.chatId) ?? -1)) {
      outOfOrder += 1;
      if (examples.length < 5) examples.push(`chat ${reply.chatId}: reply to update ${index + 1} came after a later update's reply`);
    }
    lastPaired.set(reply.chatId, Math.max(index, lastPaired.get(reply.chatId) ?? -1));
    pairs.push({ index, at: reply.at });
  }
  const missing = updates.length - pairs.length;
  if (missing > 0 && examples.length < 5) {
    const answered = new Set(pairs.map((p) => p.index));
    const first = updates.findIndex((_, i) => !answered.has(i));
    const what = updates[first].message ? JSON.stringify(updates[first].message.text) : `press ${JSON.stringify(updates[first].callback_query.data)}`;
    examples.push(`update ${first + 1} (${what}) got no reply; expected ${JSON.stringify(expected[first])}`);
  }
  return { pairs, wrong, duplicates, missing, outOfOrder, ok: wrong + duplicates + missing + outOfOrder === 0, examples };
}
