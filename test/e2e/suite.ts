// The end-to-end scenarios of `hearsay run`, defined once and run in both ingress modes against the real
// sandbox over HTTP, with the service as a real child process.
import { mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxAndRuns } from './sandbox-and-runs.js';
import { createBotViaAssistant, injectFault, sendAsUser } from '../support/sandbox-harness.js';
import { botRepliesTo, fetchText } from './chat-checks.js';
import { freePort, startRun, versionedRules, webhookEnv, writeRules, type RunProcess } from './run-process.js';

type Mode = 'polling' | 'webhook';

const WEBHOOK_SECRET = 'e2e_webhook-Secret_0123456789';

export function defineRunSuite(mode: Mode): void {
  describe(`hearsay run (${mode})`, () => {
    const { sandbox, running } = sandboxAndRuns({ webhook: { retryBaseMs: 50, retryMaxMs: 400 } }, { afterEachTest: true });
    let botCounter = 0;
    /** One data directory per bot, kept across restarts as an operator would. */
    const dataDirs = new Map<string, string>();

    async function newBot() {
      botCounter += 1;
      const userId = 900 + botCounter;
      const username = `e2e_${mode}_${botCounter}_bot`;
      return createBotViaAssistant(sandbox.baseUrl, { userId, name: `E2E ${botCounter}`, username });
    }

    async function launch(token: string, rulesDir: string, port: number, extra: Record<string, string> = {}) {
      const env: Record<string, string> = {
        BOT_TOKEN: token,
        BASE_URL: sandbox.baseUrl,
        HEARSAY_RULES: rulesDir,
        HEARSAY_MODE: mode,
        HEARSAY_POLLING_TIMEOUT: '1',
        HEARSAY_LOG_LEVEL: 'debug',
        // Rate limits are not the subject here (test/reliability covers them): keep these tests fast.
        HEARSAY_RATE_LIMITS_PER_CHAT_PER_SECOND: '1000',
        HEARSAY_RATE_LIMITS_OVERALL_PER_SECOND: '1000',
        HEARSAY_DATA_DIR: dataDirs.get(token) ?? (await mkdtemp(join(tmpdir(), 'hearsay-e2e-data-'))),
        ...(mode === 'polling' ? { HEARSAY_ADMIN_LISTEN: `127.0.0.1:${port}` } : webhookEnv(port, WEBHOOK_SECRET)),
        ...extra,
      };
      dataDirs.set(token, env.HEARSAY_DATA_DIR!);
      const process = startRun({ env });
      running.push(process);
      await process.waitForLine(/hearsay is running/);
      return process;
    }

    function expectNoSecrets(process: RunProcess, token: string) {
      const output = process.lines.join('\n');
      expect(output).not.toContain(token);
      expect(output).not.toContain(token.split(':')[1]);
      expect(output).not.toContain(WEBHOOK_SECRET);
    }

    it('answers with the right rule, serves /healthz and /metrics, hot-reloads without losing a message, keeps the old rules after a bad edit, and never logs the token', async () => {
      const bot = await newBot();
      const rules = await writeRules(versionedRules('v1'));
      const port = await freePort();
      const run = await launch(bot.token, rules.dir, port);
      const user = 5001;

      for (const text of ['ping', 'say hello', 'anything else']) await sendAsUser(sandbox.baseUrl, user, bot.username, text);
      expect(await botRepliesTo(sandbox.baseUrl, bot.username, user, 3)).toEqual(['pong', 'you said hello', 'v1: anything else']);

      const health = await fetchText(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      expect(JSON.parse(health.text)).toEqual({ status: 'ok', rules: 3, last_api_call_ok: true, mode });
      const metrics = await fetchText(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.text).toMatch(/^hearsay_updates_received_total 3$/m);
      expect(metrics.text).toMatch(/^hearsay_replies_sent_total 3$/m);
      expect(metrics.text).toMatch(/^hearsay_rules_active 3$/m);
      expect(metrics.text).toMatch(/^hearsay_match_duration_seconds_count 3$/m);
      expect(metrics.text).toMatch(/^process_cpu_user_seconds_total /m);

      // Messages keep flowing while the file is replaced the way editors save (temp file + rename).
      const stream = Array.from({ length: 8 }, (_, i) => `m${i}`);
      for (const [i, text] of stream.entries()) {
        if (i === 4) {
          await writeFile(`${rules.file}.tmp`, versionedRules('v2'));
          await rename(`${rules.file}.tmp`, rules.file);
        }
        await sendAsUser(sandbox.baseUrl, user, bot.username, text);
      }
      const streamed = (await botRepliesTo(sandbox.baseUrl, bot.username, user, 3 + stream.length)).slice(3);
      expect(streamed).toHaveLength(stream.length);
      streamed.forEach((reply, i) => expect(reply).toMatch(new RegExp(`^v[12]: m${i}$`)));
      // Once the new set answers, the old one never does again.
      const firstV2 = streamed.findIndex((r) => r.startsWith('v2'));
      if (firstV2 >= 0) expect(streamed.slice(firstV2).every((r) => r.startsWith('v2'))).toBe(true);

      await run.waitForLine(/rules reloaded/);
      await sendAsUser(sandbox.baseUrl, user, bot.username, 'after reload');
      expect((await botRepliesTo(sandbox.baseUrl, bot.username, user, 12)).at(-1)).toBe('v2: after reload');

      // A broken edit is refused; the last good rules keep answering.
      await writeFile(rules.file, 'rules:\n  - id: broken\n    text: [unclosed\n');
      await run.waitForLine(/rule reload failed/);
      await sendAsUser(sandbox.baseUrl, user, bot.username, 'still here');
      expect((await botRepliesTo(sandbox.baseUrl, bot.username, user, 13)).at(-1)).toBe('v2: still here');
      expect((await fetchText(`http://127.0.0.1:${port}/metrics`)).text).toMatch(/^hearsay_reload_success 0$/m);

      // SIGHUP reloads on demand (the broken file is still there, so this reload fails too).
      const failuresBefore = run.lines.filter((l) => l.includes('rule reload failed')).length;
      run.child.kill('SIGHUP');
      await run.waitForLine(/SIGHUP: reloading the rules/);
      await expect.poll(() => run.lines.filter((l) => l.includes('rule reload failed')).length, { timeout: 5000 }).toBe(failuresBefore + 1);

      expect(await run.stop('SIGTERM')).toBe(0);
      expect(run.lines.some((l) => l.includes('"update_id"') && l.includes('"rule":"echo"') && l.includes('"duration_ms"'))).toBe(true);
      expectNoSecrets(run, bot.token);
    });

    it('keeps per-chat order with 20 chats at once, and recovers injected 429 and 500 without loss', async () => {
      const bot = await newBot();
      const rules = await writeRules(versionedRules('v1'));
      const port = await freePort();
      const run = await launch(bot.token, rules.dir, port);

      const users = Array.from({ length: 20 }, (_, i) => 6000 + i);
      await Promise.all(
        users.map(async (user) => {
          for (let i = 0; i < 10; i++) await sendAsUser(sandbox.baseUrl, user, bot.username, `c${user} m${i}`);
        }),
      );
      const answers = await Promise.all(users.map((user) => botRepliesTo(sandbox.baseUrl, bot.username, user, 10)));
      users.forEach((user, u) => expect(answers[u]).toEqual(Array.from({ length: 10 }, (_, i) => `v1: c${user} m${i}`)));

      await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'sendmessage', count: 2, status: 429, retry_after: 1 });
      await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'sendmessage', count: 2, status: 500 });
      const user = 7001;
      for (const text of ['f1', 'f2', 'f3']) await sendAsUser(sandbox.baseUrl, user, bot.username, text);
      expect(await botRepliesTo(sandbox.baseUrl, bot.username, user, 3, 20_000)).toEqual(['v1: f1', 'v1: f2', 'v1: f3']);
      expect(run.lines.some((l) => l.includes('sendmessage failed; retrying') && l.includes('"retry_in_ms":1000'))).toBe(true);

      expect(await run.stop('SIGTERM')).toBe(0);
      // Retries are warnings; a normal stop (ending the long poll) logs no error at all, and Node printed
      // no warning of its own (such as MaxListenersExceededWarning) under 20 chats at once.
      expect(run.lines.filter((l) => /"level":(50|60)/.test(l))).toEqual([]);
      expect(run.lines.filter((l) => /Warning/.test(l) && !l.startsWith('{'))).toEqual([]);
      expectNoSecrets(run, bot.token);
    }, 60_000);

    it('a graceful restart in the middle of a stream loses and repeats nothing', async () => {
      const bot = await newBot();
      const rules = await writeRules(versionedRules('v1'));
      const port = await freePort();
      let run = await launch(bot.token, rules.dir, port);
      const users = [8001, 8002, 8003, 8004];
      const perUser = 12;

      const sendRange = (from: number, to: number) =>
        Promise.all(
          users.map(async (user) => {
            for (let i = from; i < to; i++) await sendAsUser(sandbox.baseUrl, user, bot.username, `u${user} n${i}`);
          }),
        );
      await sendRange(0, 5);
      // Stop while updates are still arriving and being answered.
      const sending = sendRange(5, 8);
      expect(await run.stop('SIGTERM')).toBe(0);
      await sending;
      expect(run.lines.some((l) => /"msg":"stopped"/.test(l))).toBe(true);
      run = await launch(bot.token, rules.dir, port);
      await sendRange(8, perUser);
      for (const user of users) {
        expect(await botRepliesTo(sandbox.baseUrl, bot.username, user, perUser, 20_000)).toEqual(
          Array.from({ length: perUser }, (_, i) => `v1: u${user} n${i}`),
        );
      }
      expect(await run.stop('SIGINT')).toBe(0);
      expectNoSecrets(run, bot.token);
    }, 60_000);

    if (mode === 'webhook') {
      it('asks for chat_member updates only while a rule answers member events: setwebhook again after a reload', async () => {
        const bot = await newBot();
        const rules = await writeRules(`${versionedRules('v1')}  - id: welcome\n    event: member_joined\n    reply: "Welcome!"\n`);
        const port = await freePort();
        const run = await launch(bot.token, rules.dir, port);
        const kinds = async () => {
          const info = (await (await fetch(`${sandbox.baseUrl}/bot${bot.token}/getWebhookInfo`)).json()) as { result: { allowed_updates?: string[] } };
          return info.result.allowed_updates;
        };
        expect(await kinds()).toEqual(['message', 'callback_query', 'my_chat_member', 'chat_member']);
        await writeFile(`${rules.file}.tmp`, versionedRules('v2'));
        await rename(`${rules.file}.tmp`, rules.file);
        await run.waitForLine(/webhook update kinds changed/);
        expect(await kinds()).toEqual(['message', 'callback_query', 'my_chat_member']);
        expect(await run.stop('SIGINT')).toBe(0);
        expectNoSecrets(run, bot.token);
      });

      it('rejects a wrong or missing secret with 401, a malformed update with 400 and an oversized body with 413', async () => {
        const bot = await newBot();
        const rules = await writeRules(versionedRules('v1'));
        const port = await freePort();
        const run = await launch(bot.token, rules.dir, port, { HEARSAY_WEBHOOK_MAX_BODY_BYTES: '2048' });
        const url = `http://127.0.0.1:${port}/hook`;
        const post = (headers: Record<string, string>, body: string) =>
          fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
        const update = JSON.stringify({ update_id: 1, message: { message_id: 1, date: 1, chat: { id: 1, type: 'private' }, text: 'hi' } });

        expect((await post({ 'x-telegram-bot-api-secret-token': 'wrong' }, update)).status).toBe(401);
        expect((await post({ 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET.slice(0, -1) + 'X' }, update)).status).toBe(401);
        expect((await post({}, update)).status).toBe(401);
        expect((await post({ 'x-telegram-bot-api-secret-token': 'sécret' }, update)).status).toBe(401);
        const invalid = await post({ 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET }, JSON.stringify({ update_id: 'x' }));
        expect(invalid.status).toBe(400);
        expect(await invalid.text()).toMatch(/invalid update: .*update_id/);
        const big = JSON.stringify({ update_id: 2, padding: 'x'.repeat(4096) });
        expect((await post({ 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET }, big)).status).toBe(413);

        // The service's own deliveries still work after all that.
        await sendAsUser(sandbox.baseUrl, 9001, bot.username, 'ping');
        expect(await botRepliesTo(sandbox.baseUrl, bot.username, 9001, 1)).toEqual(['pong']);
        expect(await run.stop('SIGTERM')).toBe(0);
        expectNoSecrets(run, bot.token);
      });
    }
  });
}
