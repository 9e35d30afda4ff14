// Chaos, bounded and on loopback only: a real redis-server, three `hearsay run` replicas in webhook mode
// behind a round-robin load balancer, 2,000 messages over 50 chats from the sandbox, a quarter of them
// answers to a two-step flow; during the stream two replicas are killed with SIGKILL and started again, and
// Redis is restarted once. Every message is answered, a message is answered twice only if a replica reported
// it in doubt, each chat's replies keep its order and every flow goes on at the right step. Users who leave
// a flow unanswered get its timeout once, though every replica started since knows the flow and times it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, writeRules, type RunProcess } from '../e2e/run-process.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { startRoundRobinBalancer, type RoundRobinBalancer } from '../support/round-robin-balancer.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';
import { inDoubtUpdateIds, collapseRepeats } from '../support/in-doubt.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { startWebhookReplica } from './webhook-replicas.js';

const CHATS = 50;
const PER_CHAT = 40;
/** Users who start a survey and never answer it. */
const SURVEYS = 20;
const SECRET = 'chaos_replicas-Secret_42';

const RULES = `
rules:
  - id: echo
    fallback: true
    reply: "v1: {{text}}"
flows:
  - id: form
    start: { command: form }
    steps:
      - id: a
        ask: "form: a?"
        accept: { number: {} }
      - id: b
        ask: "b after {{flow.a}}?"
        accept: { number: {} }
    done:
      - reply: "form {{flow.a}} then {{flow.b}}"
  - id: survey
    start: { command: survey }
    timeout: { after: 20s, reply: "survey timed out" }
    steps:
      - id: q
        ask: "survey?"
`;

/** What a chat sends as its message i, and the one reply each must get: every fourth cycle of four is a form. */
function message(chat: number, i: number): { send: string; expect: string } {
  const k = Math.floor(i / 4);
  return [
    { send: '/form', expect: 'form: a?' },
    { send: String(k), expect: `b after ${k}?` },
    { send: String(k + 100), expect: `form ${k} then ${k + 100}` },
    { send: `c${chat} m${k}`, expect: `v1: c${chat} m${k}` },
  ][i % 4]!;
}

describe('replicas on a shared Redis store under chaos', () => {
  let sandbox: StartedSandbox;
  let redis: RedisServer;
  let balancer: RoundRobinBalancer | undefined;
  const runs: RunProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ webhook: { retryBaseMs: 20, retryMaxMs: 200 } });
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(runs.map((run) => run.stop('SIGKILL')));
    await balancer?.close();
    await sandbox?.close();
    await redis?.close();
  });

  it('2,000 messages over 50 chats with flows, two replicas killed and restarted, Redis restarted: all answered, in order, flows at the right step, duplicates only in doubt, timeouts once', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9_999, name: 'Chaos', username: `chaos_replicas_${process.pid}_bot` });
    const rules = await writeRules(RULES);
    const ports = [await freePort(), await freePort(), await freePort()];
    const front = await startRoundRobinBalancer(ports.map((port) => `http://127.0.0.1:${port}`));
    balancer = front;
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const replica = { baseUrl: sandbox.baseUrl, token: bot.token, rulesDir: rules.dir, store: redis.url, frontUrl: front.url, secret: SECRET, running: runs };
    const launch = (index: number): Promise<RunProcess> => startWebhookReplica({ ...replica, readyMs: 20_000 }, ports[index]!);
    const replicas = [await launch(0), await launch(1), await launch(2)];

    // Surveys first: replicas started again later find them stored and time them as well.
    await Promise.all(Array.from({ length: SURVEYS }, (_, i) => sendAsUser(sandbox.baseUrl, 21_000 + i, bot.username, '/survey')));
    const total = CHATS * PER_CHAT + SURVEYS;
    const sending = Promise.all(
      Array.from({ length: CHATS }, async (_, chat) => {
        for (let i = 0; i < PER_CHAT; i++) await sendAsUser(sandbox.baseUrl, 20_000 + chat, bot.username, message(chat, i).send);
      }),
    );
    const chaos = (async () => {
      await ledger.waitForReplies(total * 0.2, 120_000);
      replicas[0]!.child.kill('SIGKILL');
      await replicas[0]!.exited;
      replicas[0] = await launch(0);
      await ledger.waitForReplies(total * 0.45, 120_000);
      await redis.kill();
      await redis.start();
      await ledger.waitForReplies(total * 0.65, 120_000);
      replicas[1]!.child.kill('SIGKILL');
      await replicas[1]!.exited;
      replicas[1] = await launch(1);
    })();
    await Promise.all([sending, chaos]);
    // An update answered twice (in doubt) counts once: wait until every message and every survey's timeout has its answer.
    const answered = () => [...ledger.replies.values()].reduce((sum, replies) => sum + collapseRepeats(replies).once.length, 0);
    await expect.poll(answered, { timeout: 150_000, interval: 200 }).toBe(total + SURVEYS);

    const inDoubt = inDoubtUpdateIds(runs);
    const outage = runs.flatMap((run) => run.lines).filter((line) => /the Redis store is unavailable/.test(line));
    for (let chat = 0; chat < CHATS; chat++) {
      const user = 20_000 + chat;
      const { once, repeated } = collapseRepeats(ledger.replies.get(user) ?? []);
      // Every message answered, in the order sent, each flow at the right step, once each apart from those reported in doubt.
      expect(once).toEqual(Array.from({ length: PER_CHAT }, (_, i) => message(chat, i).expect));
      const sent = ledger.sent.filter((entry) => entry.userId === user);
      for (const at of repeated) expect(inDoubt, `answered twice without being reported in doubt: ${once[at]}`).toContain(sent[at]!.updateId);
    }
    for (let i = 0; i < SURVEYS; i++) {
      const replies = ledger.replies.get(21_000 + i) ?? [];
      expect(collapseRepeats(replies).once).toEqual(['survey?', 'survey timed out']);
      // Timed out once, not once per replica that knew the flow.
      expect(replies.filter((reply) => reply === 'survey timed out')).toHaveLength(1);
    }
    expect(outage.length).toBeGreaterThan(0);
    ledger.close();
  }, 300_000);
});
