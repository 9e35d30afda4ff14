// Issue 10, items 1 and 2: a bot must never go deaf. Only an update remembered exactly counts as handled: a
// service that starts its update ids over (a restarted server, the real service after a quiet week) is
// answered, and no bound on remembered ids turns an unseen id into "handled".
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import type { Update } from '../../src/api/types.js';
import { UpdateJournal } from '../../src/store/file/update-journal.js';
import { SERVICE_RETENTION_MS } from '../../src/store/records.js';
import { injectFault, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { postToWebhook, setUpBot, textUpdate } from './bot-process.js';
import { capturingLogger } from '../support/log-capture.js';

describe('a restarted update id sequence is answered (issue 10, item 1)', () => {
  const { sandbox, running } = sandboxAndRuns({ webhook: { retryBaseMs: 50, retryMaxMs: 300 } }, { afterEachTest: true });

  for (const mode of ['polling', 'webhook'] as const) {
    it(`${mode}: after the service starts its ids over, the same data dir answers every new message and says why`, async () => {
      const { bot, launch } = await setUpBot(sandbox, mode, running);
      const user = 61;
      // The service numbers a new bot's updates from a high random id: the first one is where its ids start over.
      const ids: number[] = [];
      const unsubscribe = sandbox.sandbox.onUpdate(({ bot: name, update }) => {
        if (name === bot.username) ids.push(update.update_id);
      });
      const first = await launch();
      for (const text of ['one', 'two', 'three']) {
        const sent = await sendAsUser(sandbox.baseUrl, user, bot.username, text);
        await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, after: sent.message_id, timeoutMs: 10_000 });
      }
      expect(await first.stop('SIGTERM')).toBe(0);

      // The service is "restarted": its next update ids are the first three again, ids the journal has seen.
      unsubscribe();
      const firstId = Math.min(...ids);
      sandbox.sandbox.store.botByToken(bot.token)!.queue.restartIds(firstId);
      const second = await launch();
      const sent = await sendAsUser(sandbox.baseUrl, user, bot.username, 'four');
      await sendAsUser(sandbox.baseUrl, user, bot.username, 'five');
      const replies = await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, after: sent.message_id - 1, count: 2, timeoutMs: 10_000 });
      expect(replies.map((m) => m.text)).toEqual(['v1: four', 'v1: five']);
      const notice = await second.waitForLine(/new update id sequence/);
      expect(JSON.parse(notice)).toMatchObject({ level: 30, update_id: firstId });
      expect(await second.stop('SIGTERM')).toBe(0);
    }, 40_000);
  }
});

describe('webhook intake tells a new sequence from a redelivery (issue 10, item 1)', () => {
  const { sandbox, running } = sandboxAndRuns(undefined, { afterEachTest: true, clearFaultsAfterEachTest: true });

  it('another message under the id of one still being handled is not acknowledged (503), a true redelivery is (200), and it is answered later', async () => {
    const { bot, launch, webhookUrl } = await setUpBot(sandbox, 'webhook', running);
    const run = await launch();
    // Two users with chats to the bot, so replies go through.
    for (const user of [63, 64]) {
      const sent = await sendAsUser(sandbox.baseUrl, user, bot.username, 'hi');
      await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, after: sent.message_id, timeoutMs: 10_000 });
    }
    await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'sendmessage', delay_ms: 1500, count: 1 });
    const old = JSON.stringify(textUpdate(5000, 63, 'old sequence'));
    const fresh = JSON.stringify({
      ...textUpdate(5000, 64, 'new sequence'),
      message: { ...(textUpdate(5000, 64, 'new sequence').message as object), message_id: 9 },
    });
    expect(await postToWebhook(webhookUrl, old)).toBe(200);
    expect(await postToWebhook(webhookUrl, fresh)).toBe(503);
    expect(await postToWebhook(webhookUrl, old)).toBe(200);
    await waitForBotReplies(sandbox.baseUrl, { userId: 63, bot: bot.username, after: 0, count: 2, timeoutMs: 10_000 });
    // The service sends the refused one again (as it does, until the old one is finished): then it is answered.
    await expect.poll(() => postToWebhook(webhookUrl, fresh), { timeout: 10_000 }).toBe(200);
    const replies = await waitForBotReplies(sandbox.baseUrl, { userId: 64, bot: bot.username, after: 0, count: 2, timeoutMs: 10_000 });
    expect(replies[1]?.text).toBe('v1: new sequence');
    expect(await run.stop('SIGTERM')).toBe(0);
  }, 40_000);
});

const update = (id: number, chat = 1, date = 1): Update =>
  ({ update_id: id, message: { message_id: id, date, chat: { id: chat, type: 'private', first_name: 'A' }, text: `t${id}` } }) as Update;

describe('no bound on remembered ids makes an unseen update "handled" (issue 10, item 2)', () => {
  it('an update still waiting (e.g. on a 429) while far more than the capacity of newer ones are handled is answered afterwards', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearsay-capacity-'));
    const journal = UpdateJournal.open({ dir, logger: capturingLogger().logger, capacity: 100 });
    const waiting = update(5, 7);
    expect(journal.has(5, waiting)).toBe(false);
    for (let id = 6; id <= 1000; id++) await journal.add(id, update(id, 8));
    expect(journal.size).toBeLessThanOrEqual(200);
    // The waiting chat's update was never handled: it must not count as handled now, nor after a restart.
    expect(journal.has(5, waiting)).toBe(false);
    await journal.close();
    const reopened = UpdateJournal.open({ dir, logger: capturingLogger().logger, capacity: 100 });
    expect(reopened.has(5, waiting)).toBe(false);
    expect(reopened.has(1000, update(1000, 8))).toBe(true);
    await reopened.close();
  });

  it('a known id carrying another message is a new sequence, not a duplicate; a true redelivery still is', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearsay-sequence-'));
    const { logger, lines } = capturingLogger();
    const journal = UpdateJournal.open({ dir, logger });
    for (let id = 1; id <= 3; id++) await journal.add(id, update(id, 1, 100));
    expect(journal.has(2, update(2, 1, 100))).toBe(true);
    expect(journal.has(2, update(2, 9, 500))).toBe(false);
    expect(lines.join('')).toMatch(/"level":30.*new update id sequence/);
    // The old sequence is forgotten: its other ids no longer hide the new sequence's updates.
    expect(journal.has(3, update(3, 9, 501))).toBe(false);
    await journal.close();
  });

  it('after a quiet period longer than the service keeps updates, remembered ids are forgotten', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearsay-quiet-'));
    let now = 1_000_000;
    const { logger, lines } = capturingLogger();
    const journal = UpdateJournal.open({ dir, logger, now: () => now });
    await journal.add(40, update(40));
    now += SERVICE_RETENTION_MS + 1;
    expect(journal.has(12, update(12, 3, 900))).toBe(false);
    expect(journal.size).toBe(0);
    expect(lines.join('')).toMatch(/"level":30.*new update id sequence \(a lower id than before, after more than 24 hours/);
    await journal.close();
  });
});
