// Reminders through kill -9, over real HTTP against the sandbox: a reminder set just before the bot is killed
// arrives once after the restart (file store; Redis with two replicas, one of them killed), and one that is
// more than `late_after` overdue when the bot starts again is dropped and logged, not sent late. The acknowledgement of an
// update answered in doubt (killed between its answer and its commit) may repeat; the reminders may not.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { pollingBotLauncher, writeRules, type RunProcess } from '../e2e/run-process.js';
import { redisForSuite } from '../support/redis-server.js';
import { collectSentMessages } from '../support/sent-messages.js';
import { createBotViaAssistant, sendAsUser } from '../support/sandbox-harness.js';

const RULES = [
  'rules:',
  '  - id: tea',
  '    command: tea',
  '    remind: { id: tea, in: 4s, reply: "Tea for {{user.first_name}} is ready." }',
  '    reply: "Timer set."',
  '  - id: egg',
  '    command: egg',
  '    remind: { id: egg, in: 2s, late_after: 1s, reply: "Your egg is done." }',
  '    reply: "Egg timer set."',
  '',
].join('\n');

describe('reminders through kill -9', () => {
  const { sandbox, running } = sandboxAndRuns(undefined, { afterEachTest: true });
  const redis = redisForSuite();
  let counter = 0;

  async function setUp(store: 'file' | 'redis') {
    counter += 1;
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 8100 + counter, name: 'Kitchen', username: `kitchen_${store}_${counter}_bot` });
    const rules = await writeRules(RULES);
    const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-reminders-data-'));
    const { sent, stop: unsubscribe } = collectSentMessages(sandbox.sandbox, bot.username);
    const launch = pollingBotLauncher({
      baseUrl: sandbox.baseUrl,
      token: bot.token,
      rulesDir: rules.dir,
      dataDir,
      running,
      ...(store === 'redis' ? { store: redis.server.url } : {}),
    });
    // A kill between an answer and its commit answers that update again after the restart (reported in doubt):
    // the acknowledgement may come twice; what must come once is the reminder.
    const texts = (chat: number) =>
      sent
        .filter((m) => m.chat === chat)
        .map((m) => m.text)
        .filter((text, i, all) => !/timer set\.$/i.test(text) || all.indexOf(text) === i);
    return { bot, launch, texts, unsubscribe };
  }

  async function killed(run: RunProcess): Promise<void> {
    run.child.kill('SIGKILL');
    await run.exited;
  }

  it('file store: set, killed before it is due, restarted: it arrives once', async () => {
    const { bot, launch, texts, unsubscribe } = await setUp('file');
    const run = await launch();
    const users = [61, 62, 63];
    for (const user of users) await sendAsUser(sandbox.baseUrl, { id: user, first_name: `Guest${user}` }, bot.username, '/tea');
    for (const user of users) await expect.poll(() => texts(user), { timeout: 10_000 }).toEqual(['Timer set.']);
    for (const user of users) await run.waitForLine(new RegExp(`"chat_id":${user},.*"update handled"`), 10_000);
    await killed(run);
    await launch();
    for (const user of users) await expect.poll(() => texts(user), { timeout: 15_000 }).toEqual(['Timer set.', `Tea for Guest${user} is ready.`]);
    // Nothing more comes: each reminder was performed once.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const user of users) expect(texts(user)).toEqual(['Timer set.', `Tea for Guest${user} is ready.`]);
    unsubscribe();
  }, 60_000);

  it('Redis, two replicas, one killed: every reminder arrives once', async () => {
    const { bot, launch, texts, unsubscribe } = await setUp('redis');
    const first = await launch();
    await launch();
    const users = [71, 72, 73, 74];
    for (const user of users) await sendAsUser(sandbox.baseUrl, { id: user, first_name: `Guest${user}` }, bot.username, '/tea');
    for (const user of users) await expect.poll(() => texts(user), { timeout: 10_000 }).toEqual(['Timer set.']);
    await killed(first);
    for (const user of users) await expect.poll(() => texts(user), { timeout: 30_000 }).toEqual(['Timer set.', `Tea for Guest${user} is ready.`]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const user of users) expect(texts(user)).toEqual(['Timer set.', `Tea for Guest${user} is ready.`]);
    unsubscribe();
  }, 90_000);

  it('one more than late_after overdue at the next start is dropped and logged, not sent late', async () => {
    const { bot, launch, texts, unsubscribe } = await setUp('file');
    const run = await launch();
    await sendAsUser(sandbox.baseUrl, { id: 81, first_name: 'Cook' }, bot.username, '/egg');
    await expect.poll(() => texts(81), { timeout: 10_000 }).toEqual(['Egg timer set.']);
    // Killed once the update is committed (its reminder stored): answered again in doubt, it would be set anew.
    await run.waitForLine(/"chat_id":81,.*"update handled"/, 10_000);
    await killed(run);
    // Due 2 s after it was set, late after 1 s more: down for 4 s, it is too late.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const again = await launch();
    await again.waitForLine(/effect dropped: it is too late/, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(texts(81)).toEqual(['Egg timer set.']);
    unsubscribe();
  }, 60_000);
});
