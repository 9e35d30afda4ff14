// Broadcasts over real HTTP against the sandbox, the parts an operator sees: who gets a campaign (`--to` with =,
// != and exists, all of them holding; users who only wrote to the bot), a dry run's count and samples, `status`
// and `cancel`, users who blocked the bot (403: marked user._blocked, left out of the next campaign, back in once
// they write again), a recipient forgotten before their send (counted cancelled), and the bot's replies going
// first: a reply during a broadcast goes out before the broadcast's next second of sends.
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, runCli } from '../e2e/run-process.js';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { sendAsUser } from '../support/sandbox-harness.js';
import { campaignIdOf, setUpBroadcastBot, type BroadcastBot, type SeedUser } from './broadcast-bot.js';

describe('broadcasts: audience, dry run, status, cancel, blocked users, replies first', () => {
  const { sandbox, running } = sandboxAndRuns(undefined, { afterEachTest: true });
  let shop: BroadcastBot | undefined;
  afterEach(() => shop?.stop());

  it('--to =, != and exists all hold; a dry run prints the count and 5 samples and sends nothing', async () => {
    shop = await setUpBroadcastBot(sandbox, running, { HEARSAY_RATE_LIMITS_ENABLED: 'false' });
    const users: SeedUser[] = [
      { id: 501, variables: { newsletter: 'yes', city: 'Berlin' } },
      { id: 502, variables: { newsletter: 'yes', city: 'Hamburg' } },
      { id: 503, variables: { newsletter: 'yes' } },
      { id: 504, variables: { newsletter: 'no', city: 'Berlin' } },
      { id: 505, variables: { city: 'Berlin' } },
      ...Array.from({ length: 6 }, (_, i) => ({ id: 510 + i, variables: { newsletter: 'yes', city: 'Köln' } })),
    ];
    await shop.seedUsers(users);
    await shop.launch();
    const text = shop.file('hello.txt', 'Hello neighbours!\n');
    const dry = await shop.cli(['--to', 'user.newsletter=yes', '--to', 'user.city!=Köln', '--text-file', text, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('dry run: 3 recipients match user.newsletter=yes and user.city!=Köln; nothing was sent');
    expect(dry.stdout).toMatch(/user 501: newsletter=yes, city=Berlin\n {2}user 502: newsletter=yes, city=Hamburg\n {2}user 503: newsletter=yes\n/);
    const all = await shop.cli(['--to', 'all', '--text-file', text, '--dry-run']);
    expect(all.stdout).toContain('dry run: 11 recipients match all');
    expect(all.stdout.match(/^ {2}user \d+/gm)).toHaveLength(5);
    expect(all.stdout).toContain('… and 6 more');
    const exists = await shop.cli(['--to', 'user.city exists', '--to', 'user.newsletter!=yes', '--text-file', text]);
    expect(exists.code, exists.stderr).toBe(0);
    const id = campaignIdOf(exists.stdout);
    await expect.poll(() => [...shop!.deliveries('Hello neighbours!').keys()].sort(), { timeout: 10_000 }).toEqual([504, 505]);
    const status = await shop.cli(['status']);
    expect(status.stdout).toContain(`campaign ${id} (finished)`);
    expect(status.stdout).toContain('sent 2, blocked 0, failed 0, left 0 of 2');
    expect(shop.sent.filter((m) => m.text === 'Hello neighbours!')).toHaveLength(2);
    // Usage errors: a condition that is none, a campaign that is not kept.
    const bad = await shop.cli(['--to', 'newsletter is yes', '--text-file', text]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--to 'newsletter is yes' is not a condition");
    const unknown = await shop.cli(['cancel', '20990101-000000']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no campaign '20990101-000000' is kept");
    const html = await shop.cli(['--to', 'all', '--text-file', shop.file('bad.html', '<b>open'), '--parse-mode', 'HTML']);
    expect(html.code).toBe(2);
    expect(html.stderr).toContain('is not valid HTML');
  }, 60_000);

  it('users who only wrote to the bot (no variables) are known: --to all reaches them, once each', async () => {
    shop = await setUpBroadcastBot(sandbox, running, { HEARSAY_RATE_LIMITS_ENABLED: 'false' });
    await shop.launch();
    for (const user of [801, 802, 803]) {
      await sendAsUser(sandbox.baseUrl, user, shop.bot.username, '/ping');
      await expect.poll(() => shop!.sent.some((m) => m.chat === user && m.text === 'pong'), { timeout: 10_000 }).toBe(true);
    }
    const text = shop.file('all.txt', 'News for everyone.');
    const dry = await shop.cli(['--to', 'all', '--text-file', text, '--dry-run']);
    expect(dry.stdout).toContain('dry run: 3 recipients match all');
    // hearsay's own mark is not shown as a variable of the samples.
    expect(dry.stdout).toMatch(/^ {2}user 801$/m);
    const sent = await shop.cli(['--to', 'all', '--text-file', text]);
    expect(sent.code, sent.stderr).toBe(0);
    await expect.poll(() => [...shop!.deliveries('News for everyone.').keys()].sort(), { timeout: 10_000 }).toEqual([801, 802, 803]);
    expect(shop.sent.filter((m) => m.text === 'News for everyone.')).toHaveLength(3);
  }, 60_000);

  it('a recipient forgotten (hearsay state forget) before the send counts as cancelled, so the campaign finishes', async () => {
    shop = await setUpBroadcastBot(sandbox, running, { HEARSAY_RATE_LIMITS_ENABLED: 'false' });
    const users = [821, 822, 823, 824].map((id) => ({ id, variables: { newsletter: 'yes' } }));
    await shop.seedUsers(users);
    // Planned while the bot is stopped: the recipients' effects wait in its store.
    const planned = await shop.cli(['--to', 'user.newsletter=yes', '--text-file', shop.file('f.txt', 'Before you go.')]);
    expect(planned.code, planned.stderr).toBe(0);
    const id = campaignIdOf(planned.stdout);
    const forgotten = await runCli(['state', 'forget', '--user', '823'], shop.env);
    expect(forgotten.code, forgotten.stderr).toBe(0);
    await shop.launch();
    await expect.poll(() => [...shop!.deliveries('Before you go.').keys()].sort(), { timeout: 10_000 }).toEqual([821, 822, 824]);
    await expect
      .poll(async () => (await shop!.cli(['status', id])).stdout, { timeout: 10_000 })
      .toContain('sent 3, blocked 0, failed 0, cancelled 1, left 0 of 4');
  }, 60_000);

  it('blocked users are marked user._blocked, left out of the next campaign, and back once they write again', async () => {
    const port = await freePort();
    shop = await setUpBroadcastBot(sandbox, running, { HEARSAY_RATE_LIMITS_ENABLED: 'false', HEARSAY_ADMIN_LISTEN: `127.0.0.1:${port}` });
    const users = Array.from({ length: 20 }, (_, i) => ({ id: 600 + i, variables: { newsletter: 'yes' } }));
    await shop.seedUsers(users);
    for (const blocked of [603, 607, 611]) sandbox.sandbox.store.setBlocked(blocked, shop.bot.id, true);
    await shop.launch();
    const first = campaignIdOf((await shop.cli(['--to', 'user.newsletter=yes', '--text-file', shop.file('a.txt', 'First news.')])).stdout);
    await expect.poll(() => shop!.deliveries('First news.').size, { timeout: 10_000 }).toBe(17);
    const status = await shop.cli(['status', first]);
    await expect.poll(async () => (await shop!.cli(['status', first])).stdout, { timeout: 10_000 }).toContain('sent 17, blocked 3, failed 0, left 0 of 20');
    expect(status.code).toBe(0);
    // The metric per campaign.
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toContain(`hearsay_broadcast_messages_total{campaign="${first}",outcome="sent"} 17`);
    expect(metrics).toContain(`hearsay_broadcast_messages_total{campaign="${first}",outcome="blocked"} 3`);
    const shown = await runCli(['state', 'show', '--user', '607'], shop.env);
    expect((JSON.parse(shown.stdout) as { variables: Record<string, unknown> }).variables._blocked).toEqual(expect.any(Number));
    // The next campaign leaves them out (no attempt at all).
    const attemptsBefore = shop.sent.filter((m) => m.chat === 603).length;
    await shop.cli(['--to', 'user.newsletter=yes', '--text-file', shop.file('b.txt', 'Second news.')]);
    await expect.poll(() => shop!.deliveries('Second news.').size, { timeout: 10_000 }).toBe(17);
    expect(shop.sent.filter((m) => m.chat === 603)).toHaveLength(attemptsBefore);
    // One of them unblocks and writes: the mark is gone, and the next campaign reaches them.
    sandbox.sandbox.store.setBlocked(603, shop.bot.id, false);
    await sendAsUser(sandbox.baseUrl, 603, shop.bot.username, '/ping');
    await expect.poll(() => shop!.sent.some((m) => m.chat === 603 && m.text === 'pong'), { timeout: 10_000 }).toBe(true);
    const dry = await shop.cli(['--to', 'user.newsletter=yes', '--text-file', shop.file('c.txt', 'Third news.'), '--dry-run']);
    expect(dry.stdout).toContain('dry run: 18 recipients');
  }, 60_000);

  it('a reply during a broadcast goes before the broadcast sends of the next second; cancel stops the rest', async () => {
    // 20 messages a second in all: the broadcast's lane gets 16 of them, a reply never waits for it.
    shop = await setUpBroadcastBot(sandbox, running, { HEARSAY_RATE_LIMITS_OVERALL_PER_SECOND: '20' });
    const users = Array.from({ length: 400 }, (_, i) => ({ id: 700 + i, variables: { newsletter: 'yes' } }));
    await shop.seedUsers(users);
    await shop.launch();
    const planned = await shop.cli(['--to', 'user.newsletter=yes', '--text-file', shop.file('slow.txt', 'Slow news.')]);
    expect(planned.stdout).toContain('it takes about 25 s at 16 messages a second');
    const id = campaignIdOf(planned.stdout);
    await expect.poll(() => shop!.deliveries('Slow news.').size, { timeout: 15_000, interval: 20 }).toBeGreaterThanOrEqual(40);
    for (const asker of [9001, 9002, 9003]) {
      const before = shop.sent.length;
      await sendAsUser(sandbox.baseUrl, asker, shop.bot.username, '/ping');
      await expect.poll(() => shop!.sent.slice(before).some((m) => m.chat === asker && m.text === 'pong'), { timeout: 5_000, interval: 10 }).toBe(true);
      const broadcastSendsFirst = shop.sent.slice(before).findIndex((m) => m.chat === asker);
      // At most a second's worth of the broadcast's sends went out between the question and its answer.
      expect(broadcastSendsFirst).toBeLessThanOrEqual(16);
    }
    const cancelled = await shop.cli(['cancel', id]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toMatch(new RegExp(`cancelled: campaign ${id} \\(cancelled\\)`));
    const afterCancel = shop.deliveries('Slow news.').size;
    await expect.poll(async () => (await shop!.cli(['status', id])).stdout, { timeout: 15_000 }).toMatch(/left 0 of 400/);
    // The sends already waiting for their turn (at most delivery.concurrency, 32) and a second's worth may still land; nothing after.
    const settled = shop.deliveries('Slow news.').size;
    expect(settled - afterCancel).toBeLessThanOrEqual(32 + 16);
    expect(settled).toBeLessThan(400);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(shop.deliveries('Slow news.').size).toBe(settled);
    const status = await shop.cli(['status', id]);
    expect(status.stdout).toContain(`sent ${settled}, blocked 0, failed 0, cancelled ${400 - settled}, left 0 of 400`);
  }, 90_000);
});
