// Faults from the service, injected by the sandbox in bursts: 500s, 429 with retry_after, connection
// resets and answers slower than the client timeout. No reply is lost, each chat keeps its order, retries
// wait (the sandbox counts the requests: no busy loop), and delivery recovers by itself.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBotViaAssistant, injectFault, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { sendmessageCount, startInProcess, type InProcessService } from '../support/in-process-service.js';

describe('faults from the service', () => {
  let sandbox: StartedSandbox;
  let botCounter = 0;
  const started: InProcessService[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.service.stop()));
    await fetch(`${sandbox.baseUrl}/client/faults`, { method: 'DELETE' });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /** A bot with a burst of messages already waiting, so the faults spread over every chat of one batch. */
  async function setUp(round: string, faultRules: object[], env: Record<string, string> = {}) {
    botCounter += 1;
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 400 + botCounter, name: 'Faults', username: `faults_${botCounter}_bot` });
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    await burst(bot.username, round);
    for (const rule of faultRules) await injectFault(sandbox.baseUrl, { bot: bot.username, ...rule });
    const running = await startInProcess(sandbox.baseUrl, bot.token, { HEARSAY_RATE_LIMITS_ENABLED: 'false', HEARSAY_DELIVERY_MAX_ATTEMPTS: '10', ...env });
    started.push(running);
    return { bot, ledger, running };
  }

  const users = [61, 62, 63, 64];
  const PER_USER = 3;
  async function burst(username: string, round: string) {
    await Promise.all(
      users.map(async (user) => {
        for (let i = 0; i < PER_USER; i++) await sendAsUser(sandbox.baseUrl, user, username, `${round} u${user} n${i}`);
      }),
    );
  }
  const expected = (round: string, user: number) => Array.from({ length: PER_USER }, (_, i) => `v1: ${round} u${user} n${i}`);

  async function recovers(bot: { username: string }, ledger: ReplyLedger, before: number) {
    // Faults are over: the next messages are answered by themselves, one request each.
    const requests = await sendmessageCount(sandbox.baseUrl, bot.username);
    await burst(bot.username, 'after');
    await ledger.waitForReplies(before + users.length * PER_USER, 10_000);
    expect(await sendmessageCount(sandbox.baseUrl, bot.username)).toBe(requests + users.length * PER_USER);
    for (const user of users) expect(ledger.replies.get(user)!.slice(-PER_USER)).toEqual(expected('after', user));
  }

  it('429 with retry_after: waits as told, no busy loop, nothing lost, order kept', async () => {
    const { bot, ledger, running } = await setUp('r429', [{ method: 'sendmessage', count: 8, status: 429, retry_after: 1 }]);
    await ledger.waitForReplies(users.length * PER_USER, 20_000);
    for (const user of users) expect(ledger.replies.get(user)).toEqual(expected('r429', user));
    // 12 replies + 8 refused attempts; a client ignoring retry_after would make hundreds of calls.
    expect(await sendmessageCount(sandbox.baseUrl, bot.username)).toBe(12 + 8);
    expect(running.lines.filter((l) => l.includes('sendmessage failed; retrying') && l.includes('"retry_in_ms":1000'))).toHaveLength(8);
    await recovers(bot, ledger, 12);
  });

  it('bursts of 500s and connection resets: backoff, nothing lost, order kept', async () => {
    const { bot, ledger } = await setUp('r500', [
      { method: 'sendmessage', count: 6, status: 500 },
      { method: 'sendmessage', count: 4, reset: true },
      { method: 'getupdates', count: 2, reset: true },
    ]);
    await ledger.waitForReplies(users.length * PER_USER, 15_000);
    for (const user of users) expect(ledger.replies.get(user)).toEqual(expected('r500', user));
    expect(await sendmessageCount(sandbox.baseUrl, bot.username)).toBe(12 + 10);
    await recovers(bot, ledger, 12);
  });

  it('answers slower than api.timeout: retried, nothing lost, order kept; only the timed-out sends may repeat', async () => {
    const { bot, ledger, running } = await setUp('slow', [{ method: 'sendmessage', count: 3, delay_ms: 800 }], { HEARSAY_API_TIMEOUT: '0.3' });
    await ledger.waitForReplies(users.length * PER_USER, 20_000);
    // A slow answer was still carried out by the service: its retry can arrive a second time.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    let repeats = 0;
    for (const user of users) {
      const replies = ledger.replies.get(user)!;
      expect(replies.filter((text, i) => replies.indexOf(text) === i)).toEqual(expected('slow', user));
      repeats += replies.length - PER_USER;
    }
    expect(repeats).toBeLessThanOrEqual(3);
    // Each send that went again after no answer is said to maybe repeat: every reply the chats got twice was reported.
    const mayRepeat = running.lines.filter((l) => l.includes('"may_repeat":true') && l.includes('no answer within 300 ms'));
    expect(mayRepeat).toHaveLength(3);
    expect(mayRepeat[0]).toContain('sendmessage got no answer in time and is sent again; if the service did it, the chat gets it twice');
    expect(repeats).toBeLessThanOrEqual(mayRepeat.length);
    await recovers(bot, ledger, 12 + repeats);
  });
});
