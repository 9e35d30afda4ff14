// The yardstick: the bot one would write by hand with nothing but node:http: a linear
// first-match over the neutral rules (the reference matcher, precompiled once), replies
// sent as plain node:http keep-alive requests, chats in parallel and each chat in order.
// Modes: polling (getUpdates loop) and webhook (node:http server that answers the
// service's POST once the reply is sent, so the queue stays with the service).
// Workloads: messages, presses (answerCallbackQuery) and state (an in-memory per-chat count).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { createReferenceMatcher } from '../workload/reference-matcher.mjs';
import { BENCH_BOT } from '../workload/updates.mjs';
import { listenLocal, readChildEnv } from './child-env.mjs';

const mode = process.argv[2];
const { baseUrl, token, rules, fault, workload } = readChildEnv();
const matcher = createReferenceMatcher(rules, BENCH_BOT.username);
const api = new URL(baseUrl);
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
/** Updates taken but not answered yet before polling waits (a bound on memory, as any real bot needs). */
const MAX_PENDING = 200;

/** One Bot API call; resolves to the answer's `result`, rejects on a transport error or ok:false. */
function call(method, params) {
  const body = JSON.stringify(params);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: api.hostname,
        port: api.port,
        path: `/bot${token}/${method}`,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (answer.ok) resolve(answer.result);
          else reject(new Error(`${method}: ${answer.description}`));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const chatCounts = new Map();

/** The Bot API call that answers `update`, or null. */
function answerFor(update) {
  const press = update.callback_query;
  if (press) {
    const hit = matcher.matchPress(press.data);
    return ['answerCallbackQuery', { callback_query_id: press.id, ...(hit ? { text: hit.reply } : {}) }];
  }
  const text = update.message?.text;
  if (text === undefined) return null;
  const chatId = update.message.chat.id;
  let reply = matcher.match(text)?.reply;
  if (reply === undefined) return null;
  if (workload === 'state') {
    const n = (chatCounts.get(chatId) ?? 0) + 1;
    chatCounts.set(chatId, n);
    reply = `${reply} #${n}`;
  }
  return ['sendMessage', { chat_id: chatId, text: reply }];
}

const chatOf = (update) => (update.message ?? update.callback_query?.message)?.chat.id;
/** A reply held back by the "late" fault, sent after the next update of its chat. */
let held = null;

async function handle(update) {
  const answer = answerFor(update);
  if (!answer) return;
  if (fault?.updateId === update.update_id) {
    if (fault.kind === 'drop') return;
    if (fault.kind === 'wrong') answer[1].text = 'WRONG ANSWER';
    if (fault.kind === 'dup') await call(...answer);
    if (fault.kind === 'late') {
      held = { chat: chatOf(update), answer };
      return;
    }
  }
  await call(...answer);
  if (held && held.chat === chatOf(update)) {
    const late = held.answer;
    held = null;
    await call(...late);
  }
}

const tails = new Map();
let pending = 0;
let wake = null;

/** Runs `update` after the previous update of its chat; different chats run concurrently. */
function enqueue(update) {
  const chat = chatOf(update);
  pending += 1;
  const tail = (tails.get(chat) ?? Promise.resolve())
    .then(() => handle(update))
    .catch((error) => process.stderr.write(`minimal bot: update ${update.update_id}: ${error.message}\n`))
    .finally(() => {
      pending -= 1;
      if (tails.get(chat) === tail) tails.delete(chat);
      if (wake && pending < MAX_PENDING) wake();
    });
  tails.set(chat, tail);
  return tail;
}

async function poll() {
  let offset = 0;
  for (;;) {
    const updates = await call('getUpdates', { offset, limit: 100, timeout: 30 });
    for (const update of updates) {
      offset = update.update_id + 1;
      void enqueue(update);
    }
    if (pending >= MAX_PENDING) await new Promise((resolve) => (wake = resolve));
    wake = null;
  }
}

async function serveWebhook() {
  const secret = Buffer.from(randomBytes(16).toString('hex'));
  const server = http.createServer((req, res) => {
    const given = Buffer.from(String(req.headers['x-telegram-bot-api-secret-token'] ?? ''));
    if (req.method !== 'POST' || req.url !== '/hook' || given.length !== secret.length || !timingSafeEqual(given, secret)) {
      res.writeHead(401).end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let update;
      try {
        update = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      // Answered when the reply is out: the service keeps the rest of the chat's queue meanwhile.
      enqueue(update).then(() => res.writeHead(200).end());
    });
  });
  server.keepAliveTimeout = 60_000;
  const url = await listenLocal(server, '/hook');
  await call('setWebhook', { url, secret_token: secret.toString(), max_connections: 40 });
}

if (mode === 'polling') await poll();
else if (mode === 'webhook') await serveWebhook();
else throw new Error(`mode must be polling or webhook, got ${mode}`);
