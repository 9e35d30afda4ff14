// The ceiling: a trivial client doing only the HTTP calls (getupdates, then one
// sendmessage, or answercallbackquery for a press, per update with a fixed answer),
// per-chat order kept, chats in parallel, over an undici keep-alive pool (the fastest HTTP client at hand, the one hearsay uses).
// Its replies are deliberately not the rule's answers; it measures the stand-in and HTTP.
// Few connections measured fastest here (8–16 beat 64 on 2 cores); BENCH_CEILING_CONNECTIONS
// and BENCH_CEILING_PENDING override the defaults.
import { Pool } from 'undici';

const { BENCH_BASE_URL, BENCH_TOKEN } = process.env;
const pool = new Pool(BENCH_BASE_URL, { connections: Number(process.env.BENCH_CEILING_CONNECTIONS ?? 16) });
/** Updates fetched but not answered yet, before the next getupdates waits. */
const MAX_PENDING = Number(process.env.BENCH_CEILING_PENDING ?? 200);

async function call(method, params) {
  const { body } = await pool.request({
    path: `/bot${BENCH_TOKEN}/${method}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return body.json();
}

const tails = new Map();
let pending = 0;
let wake = null;
let offset = 0;
for (;;) {
  const answer = await call('getupdates', { offset, limit: 100, timeout: 10 });
  for (const update of answer.result ?? []) {
    offset = update.update_id + 1;
    const press = update.callback_query;
    const chatId = (update.message ?? press.message).chat.id;
    pending += 1;
    const tail = (tails.get(chatId) ?? Promise.resolve())
      .then(() => (press ? call('answercallbackquery', { callback_query_id: press.id, text: 'ok' }) : call('sendmessage', { chat_id: chatId, text: 'ok' })))
      .then(() => {
        pending -= 1;
        if (wake && pending < MAX_PENDING) wake();
      });
    tails.set(chatId, tail);
  }
  if (pending >= MAX_PENDING) await new Promise((resolve) => (wake = resolve));
  wake = null;
}
