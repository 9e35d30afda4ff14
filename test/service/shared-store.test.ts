// A service on the Redis store, as a real `hearsay run` process against the sandbox and a real redis-server:
// it answers; when Redis goes down it stops accepting (webhook: 503 with Retry-After; polling: nothing
// confirmed), says so once with the kind, on /healthz and in the metrics; when Redis is back it resumes by
// itself and every message sent meanwhile is answered, once.
import { describe, expect, it } from 'vitest';
import { freePort } from '../e2e/run-process.js';
import { postToWebhook, setUpBot, textUpdate } from '../reliability/bot-process.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { sendAsUser } from '../support/sandbox-harness.js';
import { useRedisStoreSetup } from './redis-store-setup.js';

describe('a service on the Redis store', () => {
  const setup = useRedisStoreSetup();

  it('webhook: 503 with Retry-After, /healthz and metrics while Redis is down, logged once; resumes by itself and answers everything once', async () => {
    const { sandbox, redis, running } = setup;
    const bot = await setUpBot(sandbox, 'webhook', running);
    const ledger = new ReplyLedger(sandbox.sandbox, bot.bot.username);
    const run = await bot.launch({ env: { HEARSAY_STORE: redis.url, HEARSAY_LOG_LEVEL: 'info' } });
    await run.waitForLine(/using the Redis store/);
    const base = bot.webhookUrl.replace(/\/hook$/, '');
    for (let i = 0; i < 5; i++) await sendAsUser(sandbox.baseUrl, 901, bot.bot.username, `before ${i}`);
    await ledger.waitForReplies(5, 15_000);

    await redis.kill();
    await run.waitForLine(/the Redis store is unavailable/);
    const refused = await fetch(bot.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'nothing_lost-Secret_42' },
      body: JSON.stringify(textUpdate(9_000_001, 902, 'direct')),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unavailable', store_unavailable: expect.stringMatching(/^[A-Za-z_]+$/) });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/^hearsay_store_available 0$/m);
    expect(metrics).toMatch(/^hearsay_errors_total\{kind="store_unavailable"\} [1-9]/m);
    // Sent while Redis is down: the sandbox keeps redelivering until a replica accepts.
    for (let i = 0; i < 5; i++) await sendAsUser(sandbox.baseUrl, 901, bot.bot.username, `during ${i}`);
    expect(await postToWebhook(bot.webhookUrl, JSON.stringify(textUpdate(9_000_002, 902, 'direct 2')))).toBe(503);

    await redis.start();
    await run.waitForLine(/the Redis store is available again/, 15_000);
    await ledger.waitForReplies(10, 20_000);
    expect(ledger.replies.get(901)).toEqual([...[0, 1, 2, 3, 4].map((i) => `v1: before ${i}`), ...[0, 1, 2, 3, 4].map((i) => `v1: during ${i}`)]);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/^hearsay_store_available 1$/m);
    // One line when it went down, one when it came back, whatever the number of refused requests.
    expect(run.lines.filter((l) => /the Redis store is unavailable/.test(l))).toHaveLength(1);
    expect(run.lines.join('\n')).not.toMatch(/update handler failed; update dropped/);
    ledger.close();
  }, 60_000);

  it('polling: nothing is confirmed while Redis is down; afterwards every message is answered once, in order', async () => {
    const { sandbox, redis, running } = setup;
    const bot = await setUpBot(sandbox, 'polling', running);
    const ledger = new ReplyLedger(sandbox.sandbox, bot.bot.username);
    const run = await bot.launch({ env: { HEARSAY_STORE: redis.url } });
    for (let i = 0; i < 3; i++) await sendAsUser(sandbox.baseUrl, 903, bot.bot.username, `a ${i}`);
    await ledger.waitForReplies(3, 15_000);
    await redis.kill();
    await run.waitForLine(/the Redis store is unavailable/);
    for (let i = 0; i < 5; i++) await sendAsUser(sandbox.baseUrl, 903, bot.bot.username, `b ${i}`);
    await redis.start();
    await run.waitForLine(/the Redis store is available again/, 15_000);
    await ledger.waitForReplies(8, 20_000);
    expect(ledger.replies.get(903)).toEqual([...[0, 1, 2].map((i) => `v1: a ${i}`), ...[0, 1, 2, 3, 4].map((i) => `v1: b ${i}`)]);
    expect(run.lines.join('\n')).not.toMatch(/update dropped/);
    ledger.close();
  }, 60_000);

  it('Redis unreachable at start: exit 1 with a message naming host:port and why, no password, no stack trace', async () => {
    const { sandbox, running } = setup;
    const bot = await setUpBot(sandbox, 'polling', running);
    // Nothing listens there: the port was free a moment ago and nothing here binds it.
    const port = await freePort();
    const password = 'store-Pass_word_77';
    const run = await bot.launch({ env: { HEARSAY_STORE: `redis://127.0.0.1:${port}/0`, HEARSAY_STORE_PASSWORD: password }, wait: false });
    expect(await run.exited).toBe(1);
    const output = run.lines.join('\n');
    expect(output).toMatch(new RegExp(`cannot reach the Redis store at 127\\.0\\.0\\.1:${port}\\b.*connection refused`));
    expect(output).toMatch(/HEARSAY_STORE/);
    expect(output).not.toMatch(/Connection is closed/);
    expect(output).not.toContain(password);
    expect(output).not.toMatch(/^\s+at /m);
  }, 30_000);
});
