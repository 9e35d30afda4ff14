// Broadcasts over real HTTP against the sandbox: 10,000 recipients with the limits raised, each getting the message
// exactly once; and a campaign whose bot is killed with kill -9 twice midway, which goes on after each restart so
// that every recipient gets it exactly once, apart from the sends the log reports as in doubt (at most twice).
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import type { RunProcess } from '../e2e/run-process.js';
import { campaignIdOf, inDoubtRecipients, setUpBroadcastBot, type BroadcastBot } from './broadcast-bot.js';

const SALE = 'Winter sale: <b>20% off</b> everything until Sunday.';

async function statusOf(shop: BroadcastBot, id: string): Promise<{ counts: Record<string, number>; total: number }> {
  const result = await shop.cli(['status', id, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as Array<{ counts: Record<string, number>; total: number }>)[0]!;
}

describe('broadcasts delivered exactly once', () => {
  const { sandbox, running } = sandboxAndRuns(undefined, { afterEachTest: true });
  let shop: BroadcastBot | undefined;
  afterEach(() => shop?.stop());

  it('10,000 recipients with the rate limits off: each gets it once, the others none', async () => {
    shop = await setUpBroadcastBot(sandbox, running, { HEARSAY_RATE_LIMITS_ENABLED: 'false' });
    const subscribers = Array.from({ length: 10_000 }, (_, i) => ({ id: 200_000 + i, variables: { newsletter: 'yes' } }));
    const others = Array.from({ length: 50 }, (_, i) => ({ id: 300_000 + i, variables: { newsletter: 'no' } }));
    await shop.seedUsers([...subscribers, ...others]);
    const run = await shop.launch();
    // The dry run with the real service's limits (30 a second): the count and the time it would take.
    const dry = await shop.cli(['--to', 'user.newsletter=yes', '--text-file', shop.file('sale.html', SALE), '--parse-mode', 'HTML', '--dry-run'], {
      HEARSAY_RATE_LIMITS_ENABLED: 'true',
    });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('dry run: 10000 recipients match user.newsletter=yes; nothing was sent');
    expect(dry.stdout).toContain('it would take about 7 min at 24 messages a second');
    const started = Date.now();
    const planned = await shop.cli(['--to', 'user.newsletter=yes', '--text-file', shop.file('sale.html', SALE), '--parse-mode', 'HTML']);
    expect(planned.code, planned.stderr).toBe(0);
    const id = campaignIdOf(planned.stdout);
    expect(planned.stdout).toContain('the running bot sends it now');
    // As the bot sent it: the HTML, which the sandbox parses.
    const text = SALE;
    await expect.poll(() => shop!.deliveries(text).size, { timeout: 120_000, interval: 250 }).toBe(10_000);
    const seconds = (Date.now() - started) / 1000;
    console.log(`broadcast of 10,000: ${seconds.toFixed(1)} s, ${Math.round(10_000 / seconds)} sends/s`);
    await expect.poll(async () => (await statusOf(shop!, id)).counts.sent, { timeout: 10_000 }).toBe(10_000);
    const counts = shop.deliveries(text);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(others.some((user) => counts.has(user.id))).toBe(false);
    const status = await shop.cli(['status', id]);
    expect(status.stdout).toContain(`campaign ${id} (finished)`);
    expect(status.stdout).toContain('sent 10000, blocked 0, failed 0, left 0 of 10000');
    expect(run.lines.some((line) => line.includes('"effect dropped') || line.includes('effect given up'))).toBe(false);
    // Progress in the log every 10 s while it sends, and its end.
    const finished = JSON.parse(await run.waitForLine(/"msg":"broadcast finished"/, 15_000)) as Record<string, unknown>;
    expect(finished).toMatchObject({ campaign: id, sent: 10_000, left: 0, total: 10_000 });
  }, 240_000);

  it('killed with kill -9 twice midway: it goes on after each restart, every recipient once (in-doubt sends reported)', async () => {
    shop = await setUpBroadcastBot(sandbox, running, { HEARSAY_RATE_LIMITS_OVERALL_PER_SECOND: '100', HEARSAY_RATE_LIMITS_PER_CHAT_PER_SECOND: '1' });
    const users = Array.from({ length: 600 }, (_, i) => ({ id: 400_000 + i, variables: { newsletter: 'yes' } }));
    await shop.seedUsers(users);
    const runs: RunProcess[] = [await shop.launch()];
    const planned = await shop.cli(['--to', 'user.newsletter=yes', '--text-file', shop.file('news.txt', 'News of the week.')]);
    expect(planned.code, planned.stderr).toBe(0);
    const id = campaignIdOf(planned.stdout);
    for (const reached of [150, 350]) {
      await expect.poll(() => shop!.deliveries('News of the week.').size, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(reached);
      const run = runs[runs.length - 1]!;
      run.child.kill('SIGKILL');
      await run.exited;
      expect(shop.deliveries('News of the week.').size).toBeLessThan(600);
      runs.push(await shop.launch());
    }
    await expect.poll(() => shop!.deliveries('News of the week.').size, { timeout: 60_000 }).toBe(600);
    await expect.poll(async () => (await statusOf(shop!, id)).counts.sent, { timeout: 15_000 }).toBe(600);
    const doubt = new Set(runs.flatMap((run) => [...inDoubtRecipients(run.lines, id)]));
    const counts = shop.deliveries('News of the week.');
    const twice = [...counts].filter(([, n]) => n > 1).map(([chat]) => chat);
    console.log(`kill -9 twice: ${doubt.size} sends reported in doubt, ${twice.length} recipients got it twice`);
    for (const chat of twice) expect(doubt.has(chat), `user ${chat} got it twice without an in-doubt report`).toBe(true);
    expect([...counts.values()].every((n) => n <= 2)).toBe(true);
    expect(doubt.size).toBeLessThanOrEqual(2 * 100);
  }, 180_000);
});
