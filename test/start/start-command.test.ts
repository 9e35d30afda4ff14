// `hearsay start` as a new user runs it: no token, the sandbox and the demo bot in one process, answers
// over the client API in polling and webhook mode, hot reload, clean exit on SIGTERM, token never shown;
// with BOT_TOKEN set it is `hearsay run`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatMessages, createBotViaAssistant, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';
import { spawnStart, tokenFreeEnv, waitForLogLine, type StartedDemo } from './start-process.js';
import { HEARSAY_BIN } from '../support/cli.js';

const TOKEN = /\d+:[A-Za-z0-9_-]{35}/;

const rulesWith = (greeting: string) => `rules:
  - id: start
    command: start
    reply: "${greeting}, {{user.first_name}}!"
  - id: order
    pattern: 'order (?<num>\\d+)'
    reply: "Order {{match.num}} is on its way."
  - id: fallback
    fallback: true
    reply: "Sorry?"
`;

let dir: string;
let demo: StartedDemo | undefined;
let sandbox: StartedSandbox | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-start-'));
  await writeFile(join(dir, 'bot.yaml'), rulesWith('Hello'));
});

afterEach(async () => {
  if (demo && demo.child.exitCode === null) {
    demo.child.kill('SIGKILL');
    await demo.exited;
  }
  demo = undefined;
  await sandbox?.close();
  sandbox = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function stopWithSigterm(started: StartedDemo): Promise<number | null> {
  started.child.kill('SIGTERM');
  return started.exited;
}

/**
 * The demo bot's owner is a random user: user 1 (once its owner) has no chat with BotMaker, so no token to
 * read, and the bot is not theirs in the chat list.
 */
async function expectOwnerUnguessable(baseUrl: string): Promise<void> {
  expect(await chatMessages(baseUrl, 1, 'BotMaker')).toEqual([]);
  const list = (await (await fetch(`${baseUrl}/client/bots?user=1`)).json()) as { result: Array<{ username: string; mine: boolean }> };
  expect(list.result.find((entry) => entry.username === 'hearsay_demo_bot')).toMatchObject({ mine: false });
}

describe('hearsay start without a token', () => {
  it('runs the demo bot against the embedded sandbox, reloads edited rules, and exits 0 on SIGTERM', async () => {
    demo = spawnStart(['--port', '0', '--rules', dir, '--log-format', 'json'], { env: tokenFreeEnv(), cwd: dir });
    const ready = await waitForLogLine(demo, /^Open http:\/\/127\.0\.0\.1:\d+\/ and talk to @hearsay_demo_bot$/);
    expect(ready).toMatchObject({ bot: '@hearsay_demo_bot', mode: 'polling' });
    const page = String(ready.page);
    const baseUrl = page.replace(/\/$/, '');

    const pageResponse = await fetch(page);
    expect(pageResponse.headers.get('content-type')).toMatch(/^text\/html/);

    const sent = await sendAsUser(baseUrl, { id: 501, first_name: 'Ann' }, 'hearsay_demo_bot', '/start');
    const [welcome] = await waitForBotReplies(baseUrl, { userId: 501, bot: 'hearsay_demo_bot', after: sent.message_id });
    expect(welcome?.text).toBe('Hello, Ann!');

    // Saved the way editors do: a temporary file renamed over the old one.
    await writeFile(join(dir, 'bot.yaml.tmp'), rulesWith('Good evening'));
    await rename(join(dir, 'bot.yaml.tmp'), join(dir, 'bot.yaml'));
    const deadline = Date.now() + 10_000;
    let latest = welcome?.text;
    while (latest !== 'Good evening, Ann!' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = await sendAsUser(baseUrl, { id: 501, first_name: 'Ann' }, 'hearsay_demo_bot', '/start');
      latest = (await waitForBotReplies(baseUrl, { userId: 501, bot: 'hearsay_demo_bot', after: again.message_id }))[0]?.text;
    }
    expect(latest).toBe('Good evening, Ann!');

    await expectOwnerUnguessable(baseUrl);
    expect(await stopWithSigterm(demo)).toBe(0);
    expect(demo.output()).toContain('demo stopped');
    // No token at all, the demo bot's included.
    expect(demo.output()).not.toMatch(TOKEN);
    // The demo bot dies with the sandbox: its journal is not left behind in the working directory.
    expect(existsSync(join(dir, '.hearsay-data'))).toBe(false);
  });

  it('works in webhook mode: the sandbox posts to a local webhook with a port of its own', async () => {
    demo = spawnStart(['--port', '0', '--rules', dir, '--log-format', 'json', '--mode', 'webhook', '--webhook-listen', '127.0.0.1:0'], {
      env: tokenFreeEnv(),
      cwd: dir,
    });
    const ready = await waitForLogLine(demo, /^Open .* and talk to @hearsay_demo_bot$/);
    expect(ready.mode).toBe('webhook');
    const baseUrl = String(ready.page).replace(/\/$/, '');
    const webhookSet = await waitForLogLine(demo, /^webhook set$/);
    expect(String(webhookSet.url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hearsay\//);
    expect(String(webhookSet.url)).not.toContain(`:${new URL(baseUrl).port}/`);

    const sent = await sendAsUser(baseUrl, { id: 502, first_name: 'Bo' }, 'hearsay_demo_bot', 'where is order 4711?');
    const [reply] = await waitForBotReplies(baseUrl, { userId: 502, bot: 'hearsay_demo_bot', after: sent.message_id });
    expect(reply?.text).toBe('Order 4711 is on its way.');

    await expectOwnerUnguessable(baseUrl);
    expect(await stopWithSigterm(demo)).toBe(0);
    expect(demo.output()).not.toMatch(TOKEN);
  });

  it('answers with the built-in demo rules where there is no rules/ folder (in German to a German app), and says so', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'hearsay-start-empty-'));
    try {
      demo = spawnStart(['--port', '0', '--log-format', 'json', '--polling-timeout', '1'], { env: tokenFreeEnv(), cwd: empty });
      const said = await waitForLogLine(
        demo,
        /^there is no rules\/ folder here, so the demo answers with its built-in rules \('node \S+hearsay\.cjs init' creates a bot of your own\)$/,
      );
      const ready = await waitForLogLine(demo, /^Open http/);
      expect(ready.rules).toBe(said.rules);
      const baseUrl = String(ready.sandbox);
      const sent = await sendAsUser(baseUrl, { id: 503, first_name: 'Di' }, 'hearsay_demo_bot', '/start');
      const [welcome] = await waitForBotReplies(baseUrl, { userId: 503, bot: 'hearsay_demo_bot', after: sent.message_id });
      expect(welcome?.text).toBe('Welcome to the Corner Shop desk, Di! I can track orders and answer questions. Try /help.');
      // A user whose app is in German gets the demo bot's German welcome.
      const german = await sendAsUser(baseUrl, { id: 504, first_name: 'Lea', language_code: 'de' }, 'hearsay_demo_bot', '/start');
      const [willkommen] = await waitForBotReplies(baseUrl, { userId: 504, bot: 'hearsay_demo_bot', after: german.message_id });
      expect(willkommen?.text).toBe('Willkommen am Schalter des Corner Shop, Lea! Ich verfolge Bestellungen und beantworte Fragen. Probieren Sie /help.');
      // Order lookups ask the small shop the sandbox runs for the demo: no setup, a real HTTP backend.
      for (const [text, answer] of [
        ['where is my order 4711?', 'Order 4711: shipped, expected Friday. You will get a tracking link by e-mail.'],
        ['order 2222', "I can't find order 2222. Check the number on your receipt?"],
      ]) {
        const asked = await sendAsUser(baseUrl, { id: 503, first_name: 'Di' }, 'hearsay_demo_bot', text!);
        const [reply] = await waitForBotReplies(baseUrl, { userId: 503, bot: 'hearsay_demo_bot', after: asked.message_id });
        expect(reply?.text).toBe(answer);
      }
      // The demo's community group, which the bot looks after: asking to join it brings the first question in private.
      const kiezCoders = async () => {
        const list = (await (await fetch(`${baseUrl}/client/bots?user=505`)).json()) as { result: Array<{ name: string; kind: string; chatId?: number }> };
        return list.result.find((entry) => entry.kind === 'group' && entry.name === 'Kiez Coders');
      };
      // Made in the background once the demo runs.
      await expect.poll(kiezCoders, { timeout: 8000 }).toBeDefined();
      const kiez = await kiezCoders();
      const asking = await fetch(`${baseUrl}/client/groups/${kiez?.chatId}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: { id: 505, first_name: 'Sam' } }),
      });
      expect(((await asking.json()) as { result: { pending?: boolean } }).result).toMatchObject({ pending: true });
      const [question] = await waitForBotReplies(baseUrl, { userId: 505, bot: 'hearsay_demo_bot', timeoutMs: 8000 });
      expect(question?.text).toBe('Hi Sam! You asked to join a group I look after. What do you code, or want to learn?');
      expect(await stopWithSigterm(demo)).toBe(0);
      // The temporary copy of the built-in rules goes with the demo.
      expect(existsSync(String(said.rules))).toBe(false);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('says plainly that a rule folder named on purpose does not exist (exit 1)', () => {
    const result = spawnSync(process.execPath, [HEARSAY_BIN, 'start', '--port', '0', '--rules', 'nowhere'], {
      env: tokenFreeEnv(),
      cwd: dir,
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^hearsay start: there is no rule folder at \S+nowhere; create one with 'node \S+hearsay\.cjs init', or point --rules at your rules$/m,
    );
    expect(result.stderr).not.toContain('have problems');
  });

  it('reports a wrong setting with exit code 2 before starting anything', () => {
    const result = spawnSync(process.execPath, [HEARSAY_BIN, 'start', '--port', '0', '--polling-timeout', 'soon'], {
      env: tokenFreeEnv(),
      cwd: dir,
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("polling.timeout must be an integer (got 'soon')");
    expect(result.stdout).not.toContain('Open ');
  });

  it('reports broken rules with their positions before anything listens (exit 1)', async () => {
    await writeFile(join(dir, 'zz.yaml'), 'rules:\n  - id: broken\n    repyl: hi\n    text: x\n');
    const result = spawnSync(process.execPath, [HEARSAY_BIN, 'start', '--port', '0', '--rules', dir], {
      env: tokenFreeEnv(),
      cwd: dir,
      encoding: 'utf8',
      timeout: 15_000,
      input: '',
    });
    // (bot.yaml from beforeEach is valid; this file breaks the set.)
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/zz\.yaml:3:5: unknown key 'repyl' in rule 'broken'; did you mean 'reply'\?/);
    expect(result.stderr).toContain('have problems; nothing was started');
    expect(result.stdout).not.toMatch(/listening|Open /);
  });

  it('says the chat page port is taken and how to choose another (exit 1)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen({ host: '127.0.0.1', port: 0 }, resolve));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const result = spawnSync(process.execPath, [HEARSAY_BIN, 'start', '--port', String(port), '--rules', dir], {
        env: tokenFreeEnv(),
        cwd: dir,
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`hearsay start: cannot listen on 127.0.0.1:${port}: the port is already in use`);
      expect(result.stderr).toContain('--port (0 picks a free one)');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('hearsay start with BOT_TOKEN', () => {
  it('behaves as hearsay run: answers the configured service and starts no sandbox of its own', async () => {
    sandbox = await startSandbox();
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 600, name: 'Real', username: 'real_start_bot' });
    demo = spawnStart(['--rules', dir, '--log-format', 'json', '--base-url', sandbox.baseUrl, '--polling-timeout', '1'], {
      env: { ...tokenFreeEnv(), BOT_TOKEN: bot.token },
      cwd: dir,
    });
    await waitForLogLine(demo, /^hearsay is running$/);
    const sent = await sendAsUser(sandbox.baseUrl, { id: 601, first_name: 'Cy' }, 'real_start_bot', '/start');
    const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId: 601, bot: 'real_start_bot', after: sent.message_id });
    expect(reply?.text).toBe('Hello, Cy!');
    expect(demo.output()).not.toMatch(/and talk to @|Server listening/);
    // It says so, and how to get the demo instead.
    expect(demo.output()).toContain("hearsay start: BOT_TOKEN is set, so this runs that bot (the same as 'hearsay run'), not the demo.");
    expect(demo.output()).toMatch(/For the demo, leave it unset: env -u BOT_TOKEN -u BOT_TOKEN_FILE node \S+hearsay\.cjs start/);
    expect(await stopWithSigterm(demo)).toBe(0);
    expect(demo.output()).not.toContain(bot.token);
  });
});
