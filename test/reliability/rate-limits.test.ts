// Outgoing rate limits against the sandbox with the service's limits switched on (1 per second per chat,
// 30 per second overall): a burst to many chats plus several messages to one chat causes no 429 (each
// reply takes exactly one sendmessage) and every reply arrives, in order.
import { describe, expect, it } from 'vitest';
import { createBotViaAssistant, sendAsUser } from '../support/sandbox-harness.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { sendmessageCount, startInProcess } from '../support/in-process-service.js';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';

describe('outgoing rate limits', () => {
  const { sandbox } = sandboxAndRuns({ rateLimits: true });

  it('a burst to 45 chats and 4 messages to one chat: no 429, nothing dropped, order kept', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 500, name: 'Limits', username: 'limits_bot' });
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const many = Array.from({ length: 45 }, (_, i) => 30_000 + i);
    const busy = 31_000;
    await Promise.all(many.map((user) => sendAsUser(sandbox.baseUrl, user, bot.username, `hello from ${user}`)));
    for (let i = 0; i < 4; i++) await sendAsUser(sandbox.baseUrl, busy, bot.username, `busy ${i}`);

    // Default limits (on by default): nothing configured here.
    const { service } = await startInProcess(sandbox.baseUrl, bot.token);
    try {
      await ledger.waitForReplies(49, 15_000);
      for (const user of many) expect(ledger.replies.get(user)).toEqual([`v1: hello from ${user}`]);
      expect(ledger.replies.get(busy)).toEqual(['v1: busy 0', 'v1: busy 1', 'v1: busy 2', 'v1: busy 3']);
      // One request per reply: the sandbox never had to refuse one with 429.
      expect(await sendmessageCount(sandbox.baseUrl, bot.username)).toBe(49);
      const metrics = await service.metrics.registry.metrics();
      expect(metrics).not.toMatch(/hearsay_errors_total\{kind="rate_limited"\} [1-9]/);
    } finally {
      await service.stop();
      ledger.close();
    }
  });

  it('without hearsay limits the same burst does meet 429s (the test can fail)', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 501, name: 'NoLimits', username: 'nolimits_bot' });
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const many = Array.from({ length: 45 }, (_, i) => 32_000 + i);
    await Promise.all(many.map((user) => sendAsUser(sandbox.baseUrl, user, bot.username, `hello from ${user}`)));
    const { service } = await startInProcess(sandbox.baseUrl, bot.token, { HEARSAY_RATE_LIMITS_ENABLED: 'false', HEARSAY_DELIVERY_MAX_ATTEMPTS: '10' });
    try {
      await ledger.waitForReplies(45, 15_000);
      expect(await sendmessageCount(sandbox.baseUrl, bot.username)).toBeGreaterThan(45);
    } finally {
      await service.stop();
      ledger.close();
    }
  });
});
