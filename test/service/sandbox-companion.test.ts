// A bot run from another terminal (`hearsay run` as a process) against a sandbox with its chat page gets what
// the demo gets: the page's banner of its rule problems, a "why" under each answer (and under a message nothing
// answered), and "answering" in the chat list while it runs. When the sandbox restarts, the bot says so and
// stops, without stack traces. Against a service that is not the sandbox, none of these calls is made.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@grammyjs/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TransformedBotApi } from '../../src/api/bot-api.js';
import { BotApiClient } from '../../src/api/client.js';
import type { Transformer } from '../../src/api/types.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { webChatPlugin } from '../../src/sandbox/web/plugin.js';
import { startService } from '../../src/service/start.js';
import { startRun, type RunProcess } from '../e2e/run-process.js';
import { createBotViaAssistant, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { SseReader, type SseItem } from '../web/sse-reader.js';

const RULES = `rules:
  - id: start
    command: start
    reply: "Hi {{user.first_name}}"
  - id: refund
    keywords: [refund, money back]
    set: { user.asked: refund }
    reply: Write to us.
`;

let dir: string;
let sandbox: Sandbox;
let baseUrl: string;
const running: RunProcess[] = [];
const readers: SseReader[] = [];

async function openSandbox(port = 0): Promise<void> {
  sandbox = await createSandbox();
  await sandbox.app.register(webChatPlugin, { store: sandbox.store, onMessage: sandbox.onMessage });
  baseUrl = await sandbox.listen({ host: '127.0.0.1', port });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-companion-'));
  await writeFile(join(dir, 'placeholder'), '');
  await openSandbox();
});
afterEach(async () => {
  for (const reader of readers.splice(0)) reader.close();
  for (const run of running.splice(0)) await run.stop();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

const isEvent = (name: string) => (item: SseItem) => item.event === name;
const payload = <T>(item: SseItem): T => JSON.parse(item.data ?? 'null') as T;
type Explained = Message & { why?: { rule: string | null; match: string; lines: string[]; changed: unknown[] } };

/** A bot created in the sandbox and `hearsay run` answering it from `dir`, where its rules are `rules/bot.yaml`. */
async function runBot(username: string): Promise<{ run: RunProcess; token: string }> {
  const { token } = await createBotViaAssistant(baseUrl, { userId: 6000, name: 'Shop', username });
  const { mkdir } = await import('node:fs/promises');
  await mkdir(join(dir, 'rules'), { recursive: true });
  await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
  const run = startRun({
    cwd: dir,
    env: { BOT_TOKEN: token, BASE_URL: baseUrl, HEARSAY_RULES: 'rules', HEARSAY_DATA_DIR: join(dir, 'data'), HEARSAY_POLLING_TIMEOUT: '1' },
  });
  running.push(run);
  await run.waitForLine(/hearsay is running/, 20_000);
  return { run, token };
}

/** The next `changed` event whose message carries a why. */
async function nextExplained(reader: SseReader): Promise<Explained> {
  for (;;) {
    const item = await reader.next(isEvent('changed'), 10_000);
    const message = payload<{ message: Explained }>(item).message;
    if (message.why) return message;
  }
}

describe('a bot run from another terminal against the sandbox', () => {
  it('explains each answer on the page: the rule and where it is written, how it matched, what it changed; nothing answered is said too', async () => {
    await runBot('why_shop_bot');
    const reader = await SseReader.open(`${baseUrl}/client/events?user=6001`);
    readers.push(reader);

    const started = await sendAsUser(baseUrl, { id: 6001, first_name: 'Ada' }, 'why_shop_bot', '/start');
    const [hello] = await waitForBotReplies(baseUrl, { userId: 6001, bot: 'why_shop_bot', after: started.message_id });
    const first = await nextExplained(reader);
    expect(first.message_id).toBe(hello!.message_id);
    expect(first.why!.lines[0]).toBe("rule 'start' (rules/bot.yaml:2) answered: its command");

    await sendAsUser(baseUrl, { id: 6001, first_name: 'Ada' }, 'why_shop_bot', 'I want my money back');
    const refund = await nextExplained(reader);
    expect(refund.text).toBe('Write to us.');
    expect(refund.why).toMatchObject({ rule: 'refund', match: 'keyword', changed: [{ name: 'user.asked', value: 'refund' }] });
    expect(refund.why!.lines.slice(0, 2)).toEqual(['rule \'refund\' (rules/bot.yaml:5) answered: keyword "money back"', 'changed: user.asked = "refund"']);
    expect(refund.why!.lines[2]).toMatch(/^backend calls: none · took [\d.]+ ms$/);

    const unanswered = await sendAsUser(baseUrl, { id: 6001, first_name: 'Ada' }, 'why_shop_bot', 'what is the weather?');
    const none = await nextExplained(reader);
    expect(none.message_id).toBe(unanswered.message_id);
    expect(none.from?.is_bot).toBe(false);
    expect(none.why!.lines[0]).toBe('no rule matched; nothing answered');
  }, 60_000);

  it('shows its rule problems in the banner while the last good rules answer, and clears them once fixed', async () => {
    await runBot('banner_shop_bot');
    const reader = await SseReader.open(`${baseUrl}/client/events?user=6002`);
    readers.push(reader);
    await writeFile(join(dir, 'rules', 'bot.yaml'), RULES.replace('    command: start', '    comand: start'));
    let status = payload<{ bot: string; problems: Array<{ where: string; message: string }> }>(await reader.next(isEvent('rules'), 15_000));
    expect(status.bot).toBe('banner_shop_bot');
    expect(status.problems).toEqual([{ where: 'rules/bot.yaml:3:5', message: "unknown key 'comand' in rule 'start'; did you mean 'command'?" }]);
    await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
    status = payload(await reader.next(isEvent('rules'), 15_000));
    expect(status).toEqual({ bot: 'banner_shop_bot', problems: [] });
  }, 60_000);

  it('is listed as answered while it runs, and not once it stopped', async () => {
    const { run } = await runBot('present_shop_bot');
    const bots = async () =>
      ((await (await fetch(`${baseUrl}/client/bots?user=6003`)).json()) as { result: Array<{ username: string; answering?: boolean }> }).result;
    await expect.poll(async () => (await bots()).find((bot) => bot.username === 'present_shop_bot')?.answering, { timeout: 10_000 }).toBe(true);
    await run.stop();
    await expect.poll(async () => (await bots()).find((bot) => bot.username === 'present_shop_bot')?.answering, { timeout: 10_000 }).toBe(false);
  }, 60_000);

  it('stops with a clear message when the sandbox restarts and forgot the bot, after one warning and no stack trace', async () => {
    const { run } = await runBot('restart_shop_bot');
    const port = Number(new URL(baseUrl).port);
    await sandbox.close();
    // The sandbox is down a few seconds, as when `npm start` is stopped and started again.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await openSandbox(port);
    const code = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 30_000))]);
    expect(code).toBe(1);
    const output = run.lines.join('\n');
    expect(output).toContain(`the sandbox at ${baseUrl} restarted and no longer knows this bot (@restart_shop_bot): create it again with BotMaker`);
    expect(output).not.toContain('revoked');
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('"stack"');
    expect(run.lines.filter((line) => line.includes('getupdates failed')).length).toBeLessThanOrEqual(1);
  }, 60_000);
});

describe('against a service that is not the sandbox', () => {
  it('makes none of the sandbox-only calls', async () => {
    const { token } = await createBotViaAssistant(baseUrl, { userId: 6100, name: 'Real', username: 'real_shop_bot' });
    await writeFile(join(dir, 'bot.yaml'), RULES);
    const secrets = new Secrets();
    const config = await loadConfig({
      cwd: dir,
      env: { BOT_TOKEN: token, BASE_URL: baseUrl, HEARSAY_RULES: join(dir, 'bot.yaml'), HEARSAY_DATA_DIR: join(dir, 'data'), HEARSAY_POLLING_TIMEOUT: '1' },
      secrets,
    });
    // The sandbox's getMe without the field that names it: to hearsay, a service like any other.
    const plainGetMe: Transformer = async (prev, method, params, options) => {
      const result = await prev(method, params, options);
      if (method === 'getme') delete (result as { hearsay_sandbox?: unknown }).hearsay_sandbox;
      return result;
    };
    const logger = createLogger({ level: 'silent', secrets });
    const wire = new TransformedBotApi(new BotApiClient({ baseUrl, token, logger }), [plainGetMe]);
    const service = await startService(config, { logger, api: wire });
    try {
      const sent = await sendAsUser(baseUrl, { id: 6101, first_name: 'Bo' }, 'real_shop_bot', '/start');
      await waitForBotReplies(baseUrl, { userId: 6101, bot: 'real_shop_bot', after: sent.message_id });
      await sendAsUser(baseUrl, { id: 6101, first_name: 'Bo' }, 'real_shop_bot', 'what is the weather?');
      await new Promise((resolve) => setTimeout(resolve, 500));
      const stats = (await (await fetch(`${baseUrl}/client/stats?bot=real_shop_bot`)).json()) as { result: { requests: Record<string, number> } };
      expect(stats.result.requests.sendmessage).toBe(1);
      expect(stats.result.requests).not.toHaveProperty('explainupdate');
      expect(stats.result.requests).not.toHaveProperty('setruleproblems');
    } finally {
      await service.stop();
    }
  }, 60_000);
});
