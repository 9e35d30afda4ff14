// A broadcast on the Redis store, over real HTTP against the sandbox: users subscribe by writing to the bot, the
// command plans the campaign in Redis itself (no replica needs to take the request), two replicas send it, and one
// of them is killed with kill -9 midway: every recipient gets it once, apart from the sends the log reports as in
// doubt, and `status` counts each recipient once.
import { describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { redisForSuite } from '../support/redis-server.js';
import { sendAsUser } from '../support/sandbox-harness.js';
import { campaignIdOf, inDoubtRecipients, setUpBroadcastBot } from './broadcast-bot.js';

describe('broadcasts on Redis with two replicas', () => {
  const { sandbox, running } = sandboxAndRuns(undefined, { afterEachTest: true });
  const redis = redisForSuite();

  it('planned by the command in Redis, sent by the replicas, one killed midway: every recipient once', async () => {
    const shop = await setUpBroadcastBot(sandbox, running, { HEARSAY_STORE: redis.server.url, HEARSAY_RATE_LIMITS_OVERALL_PER_SECOND: '60' });
    const first = await shop.launch();
    const second = await shop.launch();
    const users = Array.from({ length: 200 }, (_, i) => 800 + i);
    for (let start = 0; start < users.length; start += 25) {
      await Promise.all(users.slice(start, start + 25).map((user) => sendAsUser(sandbox.baseUrl, user, shop.bot.username, '/subscribe')));
    }
    await expect.poll(() => shop.sent.filter((m) => m.ok && m.text === 'Subscribed.').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(200);
    const dry = await shop.cli(['--to', 'user.newsletter=yes', '--text-file', shop.file('n.txt', 'Redis news.'), '--dry-run']);
    expect(dry.stdout).toContain('dry run: 200 recipients match user.newsletter=yes');
    const planned = await shop.cli(['--to', 'user.newsletter=yes', '--text-file', shop.file('n.txt', 'Redis news.')]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('the running replicas send it now');
    const id = campaignIdOf(planned.stdout);
    await expect.poll(() => shop.deliveries('Redis news.').size, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(60);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(shop.deliveries('Redis news.').size).toBeLessThan(200);
    await expect.poll(() => shop.deliveries('Redis news.').size, { timeout: 60_000 }).toBe(200);
    await expect.poll(async () => (await shop.cli(['status', id])).stdout, { timeout: 20_000 }).toContain('sent 200, blocked 0, failed 0, left 0 of 200');
    const doubt = new Set([...inDoubtRecipients(first.lines, id), ...inDoubtRecipients(second.lines, id)]);
    const twice = [...shop.deliveries('Redis news.')].filter(([, n]) => n > 1).map(([chat]) => chat);
    for (const chat of twice) expect(doubt.has(chat), `user ${chat} got it twice without an in-doubt report`).toBe(true);
    console.log(`Redis, one of two replicas killed: ${doubt.size} sends reported in doubt, ${twice.length} recipients got it twice`);
    shop.stop();
  }, 120_000);
});
