// Polling with replicas, as real `hearsay run` processes against the sandbox and a real redis-server: three
// replicas, one polls (the lease holder) and all of them answer. The leader is killed with SIGKILL in the
// middle of the stream, and another takes over within 10 s (the 8 s lease and an acquisition round); then the
// new leader is paused (SIGSTOP) past its lease, the third takes over, and the paused one, woken, stops
// polling. Every message is answered, in order per chat, twice only when reported in doubt.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startRun, versionedRules, writeRules, type RunProcess } from '../e2e/run-process.js';
import { inDoubtUpdateIds } from '../support/in-doubt.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const CHATS = 12;
const PER_CHAT = 25;
/** The promise: another replica polls within 10 s of the leader's death (8 s lease, 0.5 s rounds, and room for a busy machine). */
const TAKEOVER_BOUND_MS = 10_000;
const LEAD = /this replica holds the polling lease/;

const timeOf = (line: string) => (JSON.parse(line) as { time: number }).time;

describe('polling with replicas on a shared Redis store', () => {
  let sandbox: StartedSandbox;
  let redis: RedisServer;
  const runs: RunProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
    redis = await startRedisServer();
  });
  afterAll(async () => {
    for (const run of runs) run.child.kill('SIGCONT');
    await Promise.all(runs.map((run) => run.stop('SIGKILL')));
    await sandbox?.close();
    await redis?.close();
  });

  it('one replica polls, all answer; the leader killed or paused is replaced within the lease; every message answered once, in order', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9_998, name: 'Poll', username: `poll_replicas_${process.pid}_bot` });
    const rules = await writeRules(versionedRules('v1'));
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const admins = new Map<RunProcess, string>();
    const launch = async (): Promise<RunProcess> => {
      const admin = `127.0.0.1:${await freePort()}`;
      const run = startRun({
        env: {
          BOT_TOKEN: bot.token,
          BASE_URL: sandbox.baseUrl,
          HEARSAY_RULES: rules.dir,
          HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-poll-replicas-')),
          HEARSAY_MODE: 'polling',
          HEARSAY_POLLING_TIMEOUT: '2',
          HEARSAY_STORE: redis.url,
          HEARSAY_LOG_LEVEL: 'info',
          HEARSAY_RATE_LIMITS_ENABLED: 'false',
          HEARSAY_API_TIMEOUT: '120',
          HEARSAY_ADMIN_LISTEN: admin,
          // Four chats at once per replica, for twelve chats: no replica can hold them all, so each takes some.
          // With the default (64), whichever replica first takes a chat keeps it (it takes the chat's next update
          // as soon as it commits one), and a replica that took none, even one holding the polling lease when
          // everything was fetched already, answers nothing.
          HEARSAY_DELIVERY_CONCURRENCY: '4',
        },
      });
      admins.set(run, admin);
      runs.push(run);
      await run.waitForLine(/hearsay is running/, 20_000);
      return run;
    };
    const replicas = [await launch(), await launch(), await launch()];
    const leader = async (among: RunProcess[]): Promise<RunProcess> => {
      await expect.poll(() => among.filter((run) => run.lines.some((line) => LEAD.test(line))).length, { timeout: 20_000 }).toBe(1);
      return among.find((run) => run.lines.some((line) => LEAD.test(line)))!;
    };

    const total = CHATS * PER_CHAT;
    const sending = Promise.all(
      Array.from({ length: CHATS }, async (_, chat) => {
        for (let i = 0; i < PER_CHAT; i++) await sendAsUser(sandbox.baseUrl, 30_000 + chat, bot.username, `p${chat} m${i}`);
      }),
    );
    const takeovers: number[] = [];
    const roles: { paused?: RunProcess; last?: RunProcess } = {};
    const chaos = (async () => {
      const first = await leader(replicas);
      await ledger.waitForReplies(total * 0.25, 120_000);
      const killedAt = Date.now();
      first.child.kill('SIGKILL');
      await first.exited;
      const others = replicas.filter((run) => run !== first);
      const second = await leader(others);
      takeovers.push(timeOf(await second.waitForLine(LEAD, 30_000)) - killedAt);

      await ledger.waitForReplies(total * 0.55, 120_000);
      const pausedAt = Date.now();
      second.child.kill('SIGSTOP');
      const third = others.find((run) => run !== second)!;
      Object.assign(roles, { paused: second, last: third });
      takeovers.push(timeOf(await third.waitForLine(LEAD, 30_000)) - pausedAt);
      // Woken past its lease: it finds the lease gone and stops polling (it keeps answering as a replica).
      second.child.kill('SIGCONT');
      await second.waitForLine(/this replica stops polling/, 20_000);
    })();
    await Promise.all([sending, chaos]);
    const answered = () => [...ledger.replies.values()].reduce((sum, replies) => sum + new Set(replies).size, 0);
    await expect.poll(answered, { timeout: 120_000, interval: 200 }).toBe(total);

    for (const ms of takeovers) expect(ms).toBeLessThan(TAKEOVER_BOUND_MS);
    const lines = runs.flatMap((run) => run.lines);
    const inDoubt = inDoubtUpdateIds(runs);
    const doubtTexts = new Set(ledger.sent.filter((entry) => inDoubt.has(entry.updateId)).map((entry) => `v1: ${entry.text}`));
    for (let chat = 0; chat < CHATS; chat++) {
      const replies = ledger.replies.get(30_000 + chat) ?? [];
      expect(replies.filter((reply, i) => replies.indexOf(reply) === i)).toEqual(Array.from({ length: PER_CHAT }, (_, i) => `v1: p${chat} m${i}`));
      for (const twice of ledger.duplicatesFor(30_000 + chat)) expect(doubtTexts, `answered twice without being reported in doubt: ${twice}`).toContain(twice);
    }
    // Stored updates the leader confirmed past are still its own sequence: nothing forgotten as a new one.
    expect(lines.filter((line) => /started a new update id sequence/.test(line))).toEqual([]);
    // The metrics say which replica polls: the last to take the lease, not the one that was paused.
    const leading = async (run: RunProcess) => /^hearsay_polling_leader 1$/m.test(await (await fetch(`http://${admins.get(run)}/metrics`)).text());
    expect([await leading(roles.paused!), await leading(roles.last!)]).toEqual([false, true]);
    // Not only the leader answers: every replica handled updates.
    for (const run of runs) expect(run.lines.filter((line) => /"update handled"/.test(line)).length).toBeGreaterThan(0);
    ledger.close();
  }, 240_000);
});
