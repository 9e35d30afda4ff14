// Scheduled posts over real HTTP against the sandbox, with three replicas of one bot on one Redis: every replica
// plans each occurrence, and each reaches the chat once; with two of the replicas killed (kill -9) right after an
// occurrence, the next one still comes, once. A post every minute (cron), so the test waits for minute turns.
// One of the killed replicas may have been between sending a post and marking it sent: the survivor then sends it
// again, and must say so ("may have happened twice"); a post repeated without that is a failure.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { pollingBotLauncher, writeRules } from '../e2e/run-process.js';
import { collectSentMessages } from '../support/sent-messages.js';
import { redisForSuite } from '../support/redis-server.js';
import { createBotViaAssistant, sendAsUser } from '../support/sandbox-harness.js';
import { inDoubtEffectIds } from '../support/in-doubt.js';

const READER = 9301;

const RULES = [
  'schedules:',
  '  - id: minute',
  '    cron: "* * * * *"',
  `    to: ${READER}`,
  '    reply: "Post of {{now.time}}"',
  'rules:',
  '  - id: start',
  '    command: start',
  '    reply: "Subscribed."',
  '',
].join('\n');

describe('scheduled posts with three replicas on one Redis', () => {
  const { sandbox, running } = sandboxAndRuns(undefined, { afterEachTest: true });
  const redis = redisForSuite();

  it('each occurrence reaches the chat once, also after two replicas are killed', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9300, name: 'Digest', username: 'digest_replicas_bot' });
    const rules = await writeRules(RULES);
    const { sent, stop: unsubscribe } = collectSentMessages(sandbox.sandbox, bot.username);
    const posts = () => sent.filter((m) => m.text.startsWith('Post of')).map((m) => m.text);
    const dataDir = () => mkdtemp(join(tmpdir(), 'hearsay-schedules-data-'));
    const launch = pollingBotLauncher({ baseUrl: sandbox.baseUrl, token: bot.token, rulesDir: rules.dir, dataDir, running, store: redis.server.url });
    const replicas = [await launch(), await launch(), await launch()];
    // The reader writes first: the service lets a bot message only those who did.
    await sendAsUser(sandbox.baseUrl, { id: READER, first_name: 'Reader' }, bot.username, '/start');
    await expect.poll(() => posts().length, { timeout: 75_000, interval: 200 }).toBeGreaterThanOrEqual(1);
    for (const run of replicas.slice(0, 2)) {
      run.child.kill('SIGKILL');
      await run.exited;
    }
    await expect.poll(() => new Set(posts()).size, { timeout: 75_000, interval: 200 }).toBeGreaterThanOrEqual(2);
    // Nothing more than once: a late look of any replica finds each occurrence performed.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(new Set(posts()).size).toBe(2);
    const reported = [...inDoubtEffectIds(running)].filter((id) => id.startsWith('s.minute.'));
    expect(posts().length - 2, `posts ${JSON.stringify(posts())}, reported in doubt ${JSON.stringify(reported)}`).toBeLessThanOrEqual(reported.length);
    unsubscribe();
  }, 200_000);
});
