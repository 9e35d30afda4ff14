// Replicas on a real Redis Cluster: three primaries with a replica each on loopback, two bots with two
// `hearsay run` replicas each (webhook mode, a round-robin balancer per bot) on `store: redis-cluster://…`.
// Every key of a bot is in its hash tag's slot, so each bot's data lives on one node; the primary holding the
// first bot is killed with SIGKILL during the stream and its replica takes over. Every message is answered, in
// order, flows at the right step (nothing the replicas acknowledged was lost: hearsay waited for the replica
// before answering 200), a message answered twice only when reported in doubt. The new primary has no replica
// (the replicas say so, and stop waiting for one) until the old one is back as its replica.
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, writeRules, type RunProcess } from '../e2e/run-process.js';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster.js';
import { startRoundRobinBalancer, type RoundRobinBalancer } from '../support/round-robin-balancer.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';
import { inDoubtUpdateIds, collapseRepeats } from '../support/in-doubt.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { startWebhookReplica } from './webhook-replicas.js';

const CHATS = 8;
const PER_CHAT = 24;
const SECRET = 'cluster_replicas-Secret_42';

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
    done:
      - reply: "form {{flow.a}}"
`;

/** Message i of a chat and its one reply: every third is a one-step form (state written and read back). */
function message(chat: number, i: number): { send: string; expect: string } {
  const k = Math.floor(i / 3);
  return [
    { send: '/form', expect: 'form: a?' },
    { send: String(k), expect: `form ${k}` },
    { send: `c${chat} m${k}`, expect: `v1: c${chat} m${k}` },
  ][i % 3]!;
}

/** The replies with every repeat of a reply already given earlier in the chat (an update answered again) left out. */
function withoutReanswers(replies: readonly string[], expected: readonly string[]): string[] {
  const kept: string[] = [];
  for (const reply of replies) {
    const next = expected[kept.length];
    if (reply !== next && kept.includes(reply)) continue;
    kept.push(reply);
  }
  return kept;
}

/**
 * For a failure's message: each replica's lines about the update and its warnings and errors (the failover, a
 * replica gone), so that a rare failure under load can be read from CI's output.
 */
function whatReplicasSaid(updateId: number, runs: readonly RunProcess[]): string {
  const said = runs.flatMap((run, r) =>
    run.lines
      .filter((line) => line.includes(`"update_id":${updateId},`) || /"level":(40|50|60)\b/.test(line))
      .map((line) => `replica ${r}: ${line.slice(0, 400)}`),
  );
  return `the replicas said:\n${said.slice(0, 40).join('\n')}`;
}

describe('replicas of two bots on a Redis Cluster', () => {
  let sandbox: StartedSandbox;
  let cluster: RedisCluster;
  const balancers: RoundRobinBalancer[] = [];
  const runs: RunProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ webhook: { retryBaseMs: 20, retryMaxMs: 200 } });
    cluster = await startRedisCluster({ primaries: 3, replicasEach: 1, nodeTimeoutMs: 1000 });
  }, 90_000);
  afterAll(async () => {
    await Promise.all(runs.map((run) => run.stop('SIGKILL')));
    await Promise.all(balancers.map((balancer) => balancer.close()));
    await sandbox?.close();
    await cluster?.close();
  });

  async function startBot(index: number) {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9_900 + index, name: 'Clustered', username: `cluster_${index}_${process.pid}_bot` });
    const rules = await writeRules(RULES);
    const ports = [await freePort(), await freePort()];
    const front = await startRoundRobinBalancer(ports.map((port) => `http://127.0.0.1:${port}`));
    balancers.push(front);
    const replica = { baseUrl: sandbox.baseUrl, token: bot.token, rulesDir: rules.dir, store: cluster.url, frontUrl: front.url, secret: SECRET, running: runs };
    await Promise.all(ports.map((port) => startWebhookReplica({ ...replica, readyMs: 30_000 }, port)));
    return { bot, ledger: new ReplyLedger(sandbox.sandbox, bot.username), prefix: `hearsay:{bot${bot.token.split(':')[0]}}:` };
  }

  it('every key of a bot in its slot; a primary killed mid-stream fails over and nothing acknowledged is lost', async () => {
    const bots = [await startBot(0), await startBot(1)];
    const sending = Promise.all(
      bots.flatMap(({ bot }, b) =>
        Array.from({ length: CHATS }, async (_, chat) => {
          for (let i = 0; i < PER_CHAT; i++) await sendAsUser(sandbox.baseUrl, 30_000 + b * 100 + chat, bot.username, message(chat, i).send);
        }),
      ),
    );
    const victim = await cluster.primaryOf(bots[0]!.prefix);
    await bots[0]!.ledger.waitForReplies((CHATS * PER_CHAT) / 3, 120_000);
    // Writes so far waited for the replica (WAIT), which is what a failover keeps — unless a WAIT found the
    // replica gone (a busy machine can drop the link): then the replicas said the victim has no replica now and
    // acknowledged writes on its disk only, which docs/scaling.md says a failover then loses.
    const onVictim = (await Promise.all(bots.map(({ prefix }) => cluster.primaryOf(prefix)))).map((primary) => primary.port === victim.port);
    const unreplicated = runs.some((run) => run.lines.some((line) => line.includes('has no replica now') && line.includes(`:${victim.port}"`)));
    await victim.kill();
    const successor = await cluster.waitForFailover(bots[0]!.prefix, victim);
    expect(successor).not.toBe(victim);
    await sending;

    const inDoubt = inDoubtUpdateIds(runs);
    for (const [b, { ledger }] of bots.entries()) {
      const answered = () => [...ledger.replies.values()].reduce((sum, replies) => sum + collapseRepeats(replies).once.length, 0);
      await expect.poll(answered, { timeout: 120_000, interval: 200 }).toBeGreaterThanOrEqual(CHATS * PER_CHAT);
      for (let chat = 0; chat < CHATS; chat++) {
        const user = 30_000 + b * 100 + chat;
        const expected = Array.from({ length: PER_CHAT }, (_, i) => message(chat, i).expect);
        const replies = ledger.replies.get(user) ?? [];
        if (onVictim[b] && unreplicated) {
          // The documented loss: a commit the victim acknowledged alone is gone, so its update is answered again,
          // possibly after a later one's reply. Only such repeats are let through, and every reply is still right.
          expect(withoutReanswers(replies, expected), `chat ${chat} (after "has no replica now" before the kill)`).toEqual(expected);
          continue;
        }
        const { once, repeated } = collapseRepeats(replies);
        expect(once, `chat ${chat}`).toEqual(expected);
        const sent = ledger.sent.filter((entry) => entry.userId === user);
        for (const at of repeated) {
          const id = sent[at]!.updateId;
          expect(inDoubt, `answered twice without being reported in doubt: ${once[at]} (update ${id}); ${whatReplicasSaid(id, runs)}`).toContain(id);
        }
      }
      ledger.close();
    }
    // Each bot's keys are all in the one slot of its hash tag, and hearsay found no other key of its own.
    const client = new Cluster(cluster.config.nodes, { scaleReads: 'master' });
    try {
      for (const { prefix } of bots) {
        const slot = await client.cluster('KEYSLOT', prefix);
        const node = client.nodes('master').find((n) => n.options.port === (client.slots[slot]?.[0] ?? '').split(':').map(Number)[1]);
        const keys = await node!.keys(`${prefix}*`);
        expect(keys.length).toBeGreaterThan(5);
        for (const key of keys) expect(await client.cluster('KEYSLOT', key)).toBe(slot);
      }
    } finally {
      client.disconnect();
    }
    const logged = (pattern: RegExp) => runs.some((run) => run.lines.some((line) => pattern.test(line)));
    /** Sends the first bot a message every half second until one of its replicas logs `pattern` (a write after the failover). */
    const writeUntilLogged = async (pattern: RegExp) => {
      for (let i = 0; i < 60 && !logged(pattern); i++) {
        await sendAsUser(sandbox.baseUrl, 30_099, bots[0]!.bot.username, `after ${i}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return logged(pattern);
    };
    // The successor has no replica of its own (its primary is dead): the replicas say so rather than wait for one.
    expect(await writeUntilLogged(/the bot's Redis server has no replica now/)).toBe(true);
    // The old primary comes back as the successor's replica: writes wait for it again.
    await victim.start();
    expect(await writeUntilLogged(/the bot's Redis server has a replica again/)).toBe(true);
  }, 300_000);
});
