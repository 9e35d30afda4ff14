// The ceiling: a trivial client doing only the HTTP calls (getupdates, then one
// sendmessage per update with a fixed answer), per-chat order kept, chats in parallel.
// Its replies are deliberately not the rule's answers; it measures the stand-in and HTTP.
import http from 'node:http';

const { BENCH_BASE_URL, BENCH_TOKEN } = process.env;
const base = new URL(BENCH_BASE_URL);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const MAX_PENDING = 200;

function call(method, params) {
  const body = JSON.stringify(params);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, path: `/bot${BENCH_TOKEN}/${method}`, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const tails = new Map();
let pending = 0;
let wake = null;
let offset = 0;
for (;;) {
  const answer = await call('getupdates', { offset, limit: 100, timeout: 10 });
  for (const update of answer.result ?? []) {
    offset = update.update_id + 1;
    const chatId = update.message.chat.id;
    pending += 1;
    const tail = (tails.get(chatId) ?? Promise.resolve()).then(() => call('sendmessage', { chat_id: chatId, text: 'ok' })).then(() => {
      pending -= 1;
      if (wake && pending < MAX_PENDING) wake();
    });
    tails.set(chatId, tail);
  }
  if (pending >= MAX_PENDING) await new Promise((resolve) => (wake = resolve));
  wake = null;
}
