// The outbox under kill -9: every user message is answered and also announced in a staff group (a `send`
// effect, committed with the update and sent after it). Killed while effects are being performed — the file
// store, and Redis with two replicas — nothing is lost, and the only messages sent twice are the effects and
// replies the next run reported in doubt.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { pollingBotLauncher, writeRules, type RunProcess } from '../e2e/run-process.js';
import { inDoubtEffectUpdates, inDoubtUpdateIds } from '../support/in-doubt.js';
import { collectSentMessages } from '../support/sent-messages.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { redisForSuite } from '../support/redis-server.js';
import { clearFaults, createBotViaAssistant, createGroup, injectFault, sendAsUser } from '../support/sandbox-harness.js';

const STAFF = { id: 9001, first_name: 'Sam' };
const RULES = [
  'rules:',
  '  - id: echo',
  '    fallback: true',
  '    reply: "v1: {{text}}"',
  '    send:',
  '      to: staff',
  '      text: "from {{user.id}}: {{text}}"',
  '',
].join('\n');

describe('the outbox through kill -9', () => {
  const { sandbox, running } = sandboxAndRuns(undefined, { afterEachTest: true, clearFaultsAfterEachTest: true });
  const redis = redisForSuite();
  let counter = 0;

  async function setUp(store: 'file' | 'redis') {
    counter += 1;
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 8000 + counter, name: 'Desk', username: `desk_${store}_${counter}_bot` });
    const staffChat = await createGroup(sandbox.baseUrl, { title: 'Staff', members: [STAFF], bots: [bot.username] });
    const configDir = await mkdtemp(join(tmpdir(), 'hearsay-outbox-'));
    const config = join(configDir, 'hearsay.yaml');
    await writeFile(config, `chats:\n  staff: ${staffChat}\n`);
    const rules = await writeRules(RULES);
    const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-outbox-data-'));
    const { sent, stop: unsubscribe } = collectSentMessages(sandbox.sandbox, bot.username);
    const staffPosts = () => sent.filter((m) => m.chat === staffChat).map((m) => m.text);
    const launch = pollingBotLauncher({
      baseUrl: sandbox.baseUrl,
      token: bot.token,
      rulesDir: rules.dir,
      dataDir,
      running,
      config,
      ...(store === 'redis' ? { store: redis.server.url } : {}),
    });
    return { bot, staffPosts, launch, unsubscribe };
  }

  async function chaos(store: 'file' | 'redis', replicas: number) {
    const { bot, staffPosts, launch, unsubscribe } = await setUp(store);
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const users = [51, 52, 53, 54];
    const perUser = 6;
    const runs: RunProcess[] = [];
    for (let i = 0; i < replicas; i++) runs.push(await launch());
    // Every send is slow, so kills land while replies and effects are on their way.
    await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'sendmessage', count: 100_000, delay_ms: 120 });
    const sending = Promise.all(
      users.map(async (user) => {
        for (let i = 0; i < perUser; i++) await sendAsUser(sandbox.baseUrl, user, bot.username, `u${user} n${i}`);
      }),
    );
    for (const threshold of [4, 12]) {
      await expect.poll(() => staffPosts().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(threshold);
      const victim = runs[runs.length - 1]!;
      victim.child.kill('SIGKILL');
      await victim.exited;
      runs.push(await launch());
    }
    await sending;
    await clearFaults(sandbox.baseUrl);
    const expected = users.flatMap((user) => Array.from({ length: perUser }, (_, i) => `u${user} n${i}`));
    await expect.poll(() => new Set(staffPosts()).size, { timeout: 60_000 }).toBe(expected.length);
    await ledger.waitForReplies(expected.length, 30_000);
    // Anything still on its way after the last look would show up now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    unsubscribe();

    const updateOf = new Map(ledger.sent.map((entry) => [entry.text, entry.updateId]));
    const doubtfulReplies = inDoubtUpdateIds(runs);
    const doubtfulEffects = inDoubtEffectUpdates(runs);
    for (const user of users) {
      for (let i = 0; i < perUser; i++) {
        const text = `u${user} n${i}`;
        const updateId = updateOf.get(text)!;
        const replies = (ledger.replies.get(user) ?? []).filter((reply) => reply === `v1: ${text}`).length;
        const posts = staffPosts().filter((post) => post === `from ${user}: ${text}`).length;
        expect({ text, replies }).toEqual({ text, replies: doubtfulReplies.has(updateId) ? expect.any(Number) : 1 });
        expect({ text, posts }).toEqual({ text, posts: doubtfulEffects.has(updateId) ? expect.any(Number) : 1 });
        expect(posts).toBeLessThanOrEqual(2);
      }
    }
  }

  it('file store: killed twice while effects are performed, every staff message arrives, twice only when reported in doubt', async () => {
    await chaos('file', 1);
  }, 180_000);

  it('Redis, two replicas: killed twice while effects are performed, every staff message arrives, twice only when reported in doubt', async () => {
    await chaos('redis', 2);
  }, 180_000);
});
