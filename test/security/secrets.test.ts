// Secrets: every command runs at debug level through startup, a bad token, API errors (injected faults),
// webhook rejections (wrong secret) and a crash (kill -9 mid-stream). Neither the token nor the webhook
// secret may appear in any output line, /metrics or /healthz answer, or file in the data directory.
// Servers that were not told otherwise listen on 127.0.0.1.
import { spawn } from 'node:child_process';
import { readdir, readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { Secrets } from '../../src/log/secrets.js';
import { createBotViaAssistant, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { freePort, startRun, versionedRules, writeRules, type RunProcess } from '../e2e/run-process.js';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;
const SECRET = 'never_Printed-webhook_Secret_31415';
/** Anything shaped like a bot token, whoever issued it. */
const TOKEN_SHAPE = /\d{5,}:[A-Za-z0-9_-]{35}/;

interface Captured {
  child: ReturnType<typeof spawn>;
  lines: string[];
  exited: Promise<number | null>;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

function spawnCli(args: string[], env: Record<string, string> = {}, cwd = tmpdir()): Captured {
  const child = spawn(process.execPath, [cli, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = async (pattern: RegExp, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = lines.find((l) => pattern.test(l));
      if (line) return line;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no line matched ${pattern}:\n${lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return { child, lines, exited, waitFor };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), 'utf8')));
}

describe('secrets never leak', () => {
  const processes: Array<{ child: ReturnType<typeof spawn> }> = [];
  afterAll(() => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  });

  it('sandbox, run (polling and webhook), check and start print neither token nor webhook secret', async () => {
    // The sandbox command, at debug level, on its default host.
    const sandbox = spawnCli(['sandbox', '--port', '0', '--log-level', 'debug']);
    processes.push(sandbox);
    const listening = await sandbox.waitFor(/sandbox listening on/);
    const baseUrl = /(http:\/\/[^\s"]+)/.exec(listening)![1]!;
    expect(new URL(baseUrl).hostname).toBe('127.0.0.1');

    const bot = await createBotViaAssistant(baseUrl, { userId: 700, name: 'Secret keeper', username: 'secret_keeper_bot' });
    const tokenTail = bot.token.split(':')[1]!;
    const rules = await writeRules(versionedRules('v1'));
    const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-secrets-'));
    const everything: string[] = [];
    const fault = (rule: object) =>
      fetch(`${baseUrl}/client/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bot: bot.username, ...rule }),
      });
    const common = {
      BOT_TOKEN: bot.token,
      BASE_URL: baseUrl,
      HEARSAY_RULES: rules.dir,
      HEARSAY_DATA_DIR: dataDir,
      HEARSAY_LOG_LEVEL: 'debug',
      HEARSAY_POLLING_TIMEOUT: '1',
      HEARSAY_RATE_LIMITS_ENABLED: 'false',
      HEARSAY_WEBHOOK_SECRET: SECRET,
    };
    const collect = (run: RunProcess | Captured) => everything.push(...run.lines);

    // run, polling: startup, API errors of every kind, /healthz and /metrics, then kill -9 mid-stream.
    const adminPort = await freePort();
    const polling = startRun({ env: { ...common, HEARSAY_ADMIN_LISTEN: `127.0.0.1:${adminPort}` } });
    processes.push(polling);
    await polling.waitForLine(/hearsay is running/);
    await fault({ method: 'sendmessage', count: 1, status: 429, retry_after: 1 });
    await fault({ method: 'sendmessage', count: 1, status: 500 });
    await fault({ method: 'sendmessage', count: 1, status: 400, description: 'Bad Request: injected' });
    await fault({ method: 'sendmessage', count: 1, reset: true });
    await fault({ method: 'getupdates', count: 1, status: 502 });
    for (let i = 0; i < 6; i++) await sendAsUser(baseUrl, 701, bot.username, `m${i}`);
    await waitForBotReplies(baseUrl, { userId: 701, bot: bot.username, count: 5, timeoutMs: 15_000 });
    for (const path of ['/healthz', '/metrics']) everything.push(await (await fetch(`http://127.0.0.1:${adminPort}${path}`)).text());
    for (let i = 0; i < 20; i++) void sendAsUser(baseUrl, 702, bot.username, `stream ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    polling.child.kill('SIGKILL');
    await polling.exited;
    collect(polling);

    // run, webhook: wrong and missing secrets, then a crash.
    const hookPort = await freePort();
    const webhook = startRun({
      env: {
        ...common,
        HEARSAY_MODE: 'webhook',
        HEARSAY_WEBHOOK_URL: `http://127.0.0.1:${hookPort}`,
        HEARSAY_WEBHOOK_LISTEN: `127.0.0.1:${hookPort}`,
      },
    });
    processes.push(webhook);
    await webhook.waitForLine(/hearsay is running/);
    const hookUrl = /"server":"([^"]+)"/.exec(await webhook.waitForLine(/hearsay is running/))?.[1] ?? `http://127.0.0.1:${hookPort}`;
    const path = new URL((await loadConfig({ cwd: '/', env: { BOT_TOKEN: bot.token }, secrets: new Secrets() })).webhook.path, 'http://x').pathname;
    const wrongSecrets: Array<Record<string, string>> = [
      { 'x-telegram-bot-api-secret-token': 'wrong' },
      {},
      { 'x-telegram-bot-api-secret-token': SECRET.slice(1) },
    ];
    for (const header of wrongSecrets) {
      const response = await fetch(`http://127.0.0.1:${hookPort}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...header },
        body: '{"update_id":1}',
      });
      expect(response.status).toBe(401);
      everything.push(await response.text());
    }
    await sendAsUser(baseUrl, 703, bot.username, 'ping');
    await waitForBotReplies(baseUrl, { userId: 703, bot: bot.username, count: 1, timeoutMs: 10_000 });
    for (const p of ['/healthz', '/metrics']) everything.push(await (await fetch(`${hookUrl}${p}`)).text());
    webhook.child.kill('SIGKILL');
    await webhook.exited;
    collect(webhook);

    // run with a token the service rejects (well-formed, same bot id, wrong secret part).
    const badToken = `${bot.id}:${'Z'.repeat(35)}`;
    const rejected = startRun({ env: { ...common, BOT_TOKEN: badToken } });
    processes.push(rejected);
    expect(await rejected.exited).toBe(1);
    expect(rejected.lines.join('\n')).not.toContain(badToken);
    expect(rejected.lines.join('\n')).toMatch(/token was rejected/);
    collect(rejected);

    // check, with the token in its environment.
    const check = spawnCli(['check', rules.dir], { BOT_TOKEN: bot.token });
    expect(await check.exited).toBe(0);
    collect(check);

    // start, with a token: it runs the bot (polling), at debug level.
    const start = spawnCli(['start', '--log-format', 'json'], { ...common, HEARSAY_LOG_FORMAT: 'json' });
    processes.push(start);
    await start.waitFor(/hearsay is running/, 15_000);
    start.child.kill('SIGTERM');
    await start.exited;
    collect(start);

    sandbox.child.kill('SIGTERM');
    await sandbox.exited;
    collect(sandbox);

    const files = await filesUnder(dataDir);
    expect(files.length).toBeGreaterThan(0);
    const haystack = [...everything, ...files].join('\n');
    expect(haystack.length).toBeGreaterThan(1000);
    for (const secret of [bot.token, tokenTail, SECRET]) expect(haystack).not.toContain(secret);
    expect(haystack).not.toMatch(TOKEN_SHAPE);
    // The debug lines of the client were really there (so the check covered them).
    expect(haystack).toMatch(/bot api call/);
  }, 90_000);

  it('the demo (start without a token) prints no token of the bot it creates', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearsay-secrets-demo-'));
    const rules = await writeRules(versionedRules('demo'));
    const demo = spawnCli(
      ['start', '--port', '0', '--rules', rules.dir, '--log-format', 'json', '--log-level', 'debug', '--data-dir', join(dir, 'data')],
      {},
      dir,
    );
    processes.push(demo);
    const ready = await demo.waitFor(/and talk to @/, 20_000);
    const { sandbox: demoSandbox, bot } = JSON.parse(ready) as { sandbox: string; bot: string };
    await sendAsUser(demoSandbox, 801, bot.slice(1), 'ping');
    await waitForBotReplies(demoSandbox, { userId: 801, bot: bot.slice(1), count: 1, timeoutMs: 10_000 });
    demo.child.kill('SIGTERM');
    await demo.exited;
    expect(demo.lines.join('\n')).not.toMatch(TOKEN_SHAPE);
  }, 40_000);

  it('servers bind 127.0.0.1 unless told otherwise', async () => {
    const config = await loadConfig({ cwd: '/', env: { BOT_TOKEN: '1234567:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, secrets: new Secrets() });
    expect(config.webhook.listen.host).toBe('127.0.0.1');
    expect(config.admin.listen).toBeNull();
    const admin = await loadConfig({
      cwd: '/',
      env: { BOT_TOKEN: '1234567:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', HEARSAY_ADMIN_LISTEN: '127.0.0.1:0' },
      secrets: new Secrets(),
    });
    expect(admin.admin.listen?.host).toBe('127.0.0.1');
  });
});
