// Crash safety in webhook mode: updates answered 200 but not yet replied to when the process is killed
// (or stopped past its shutdown deadline) are kept in the inbox and answered once at the next start; those
// beyond the acknowledged backlog stay with the service, which sends them again, and are answered once too.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { clearFaults, injectFault, sendAsUser } from '../support/sandbox-harness.js';

import { ReplyLedger } from '../support/reply-ledger.js';
import { setUpBot } from './bot-process.js';
import { MIN_BACKLOG } from '../../src/pipeline/held-updates.js';

describe('crash safety (webhook)', () => {
  const { sandbox, running } = sandboxAndRuns({ webhook: { retryBaseMs: 50, retryMaxMs: 300 } }, { afterEachTest: true, clearFaultsAfterEachTest: true });

  async function setUp() {
    const { bot, stateDir, launch } = await setUpBot(sandbox, 'webhook', running);
    const inboxLines = async () => (await readFile(join(stateDir, 'webhook.inbox'), 'utf8')).split('\n').filter((l) => l.startsWith('a '));
    return { bot, launch: (env: Record<string, string> = {}) => launch({ env }), inboxLines };
  }

  async function pendingDeliveries(token: string): Promise<number> {
    const response = await fetch(`${sandbox.baseUrl}/bot${token}/getwebhookinfo`);
    return ((await response.json()) as { result: { pending_update_count: number } }).result.pending_update_count;
  }

  async function sendAll(username: string, users: number[], perUser: number) {
    await Promise.all(
      users.map(async (user) => {
        for (let i = 0; i < perUser; i++) await sendAsUser(sandbox.baseUrl, user, username, `u${user} n${i}`);
      }),
    );
  }

  function expectAnsweredOnce(ledger: ReplyLedger, users: number[], perUser: number) {
    for (const user of users) expect(ledger.replies.get(user)).toEqual(Array.from({ length: perUser }, (_, i) => `v1: u${user} n${i}`));
  }

  it('kill -9 after the 200 answers and before the replies: the restart answers every update once', async () => {
    const { bot, launch, inboxLines } = await setUp();
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const users = [41, 42, 43, 44, 45];
    // Nothing finishes while the service is failing (every reply is retried), so hearsay has no throughput to go by.
    const run = await launch({ HEARSAY_DELIVERY_MAX_ATTEMPTS: '100' });
    // Replies hang (then fail): updates are acknowledged once their hold runs out (stored), none is answered;
    // beyond the backlog of MIN_BACKLOG (16) acknowledged-and-unfinished updates the service keeps the rest.
    await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'sendmessage', count: 1000, status: 500, delay_ms: 2000 });
    await sendAll(bot.username, users, 4);
    await expect.poll(async () => (await inboxLines()).length, { timeout: 15_000 }).toBe(MIN_BACKLOG);
    // The rest were refused (503): the service still holds them.
    await expect.poll(() => run.lines.some((l) => l.includes('asking the service to resend later')), { timeout: 10_000 }).toBe(true);
    // A stored update's 200 may still be on its way back to the service (it counts as pending until then).
    await expect.poll(() => pendingDeliveries(bot.token), { timeout: 10_000 }).toBe(20 - MIN_BACKLOG);
    run.child.kill('SIGKILL');
    await run.exited;
    expect(ledger.replyCount).toBe(0);
    expect(await inboxLines()).toHaveLength(MIN_BACKLOG);

    await clearFaults(sandbox.baseUrl);
    const again = await launch();
    await ledger.waitForReplies(20, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expectAnsweredOnce(ledger, users, 4);
    expect(again.lines.some((l) => l.includes('acknowledged by the previous run but not handled'))).toBe(true);
    expect(await again.stop('SIGTERM')).toBe(0);
    expect(await inboxLines()).toHaveLength(0);
    ledger.close();
  }, 40_000);

  it('a stop past the shutdown deadline keeps the acknowledged updates for the next start', async () => {
    const { bot, launch, inboxLines } = await setUp();
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const users = [51, 52];
    const run = await launch({ HEARSAY_DELIVERY_SHUTDOWN_TIMEOUT: '0.3' });
    await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'sendmessage', count: 1000, status: 500, delay_ms: 1500 });
    await sendAll(bot.username, users, 3);
    await expect.poll(() => pendingDeliveries(bot.token), { timeout: 10_000 }).toBe(0);
    expect(await run.stop('SIGTERM')).toBe(0);
    expect(await inboxLines()).toHaveLength(6);

    await clearFaults(sandbox.baseUrl);
    const again = await launch();
    await ledger.waitForReplies(6, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expectAnsweredOnce(ledger, users, 3);
    expect(await again.stop('SIGTERM')).toBe(0);
    ledger.close();
  }, 40_000);
});
