// "Your own bot, locally": under `hearsay start`, a bot created by chatting with BotMaker gets an answer
// that says how to run it; following it (`hearsay init`, then `hearsay start` with the token and the
// sandbox address) makes the new bot answer from its own rules folder.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askAssistant, assistantAnswer, codeBlocks, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { nearPath } from '../../src/cli/invocation.js';
import { spawnStart, tokenFreeEnv, waitForLogLine, type StartedDemo } from './start-process.js';
import { HEARSAY_BIN } from '../support/cli.js';
import { SseReader } from '../web/sse-reader.js';

const cli = HEARSAY_BIN;
let dir: string;
const running: StartedDemo[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-own-bot-'));
});
afterEach(async () => {
  for (const started of running.splice(0)) {
    if (started.child.exitCode === null) started.child.kill('SIGTERM');
    await started.exited;
  }
  await rm(dir, { recursive: true, force: true });
});

describe('a bot created in BotMaker under hearsay start', () => {
  it('comes with the commands that run it, and they work', async () => {
    const demo = spawnStart(['--port', '0', '--polling-timeout', '1', '--log-format', 'json'], { env: tokenFreeEnv(), cwd: dir });
    running.push(demo);
    const sandboxUrl = String((await waitForLogLine(demo, /^Open http/)).sandbox);

    await askAssistant(sandboxUrl, 4100, '/newbot');
    await askAssistant(sandboxUrl, 4100, 'My Shop');
    const { text: answer, entities } = await assistantAnswer(sandboxUrl, 4100, 'my_shop_bot');
    const token = /\d+:[A-Za-z0-9_-]{35}/.exec(answer)?.[0];
    expect(token).toBeDefined();
    expect(answer).toContain('Run it with hearsay against this sandbox, in another terminal, from the folder you started the sandbox in:');
    // The two commands are code blocks of their own: the page copies each whole, and a refused init never skips the cd.
    const blocks = codeBlocks(answer, entities);
    expect(blocks).toEqual([
      token,
      `node ${nearPath(cli, dir)} init my_shop_bot`,
      `cd my_shop_bot && BOT_TOKEN=${token} BASE_URL=${sandboxUrl} node ${nearPath(cli, join(dir, 'my_shop_bot'))} start`,
    ]);

    // Follow the hint: init, then start with the token and the sandbox address.
    const init = spawnSync(process.execPath, [cli, 'init', 'my_shop_bot'], { cwd: dir, encoding: 'utf8' });
    expect(init.status).toBe(0);
    expect(init.stdout).toContain('Created a bot in my_shop_bot/');
    const ownBot = spawnStart(['--polling-timeout', '1', '--log-format', 'json'], {
      env: { ...tokenFreeEnv(), BOT_TOKEN: token!, BASE_URL: sandboxUrl },
      cwd: join(dir, 'my_shop_bot'),
    });
    running.push(ownBot);
    await waitForLogLine(ownBot, /^hearsay is running$/);
    const sent = await sendAsUser(sandboxUrl, { id: 4101, first_name: 'Eve' }, 'my_shop_bot', '/start');
    const [reply] = await waitForBotReplies(sandboxUrl, { userId: 4101, bot: 'my_shop_bot', after: sent.message_id });
    expect(reply?.text).toBe('Hello, Eve! I am a brand-new bot. Try /help.');
    expect(ownBot.output()).not.toContain(token);
  }, 60_000);
});

describe('hearsay init', () => {
  it('scaffolds rules with a commented starter file, hearsay.yaml, .gitignore and a README, and never overwrites', async () => {
    const first = spawnSync(process.execPath, [cli, 'init', 'bot'], { cwd: dir, encoding: 'utf8' });
    expect(first.status).toBe(0);
    const starter = await readFile(join(dir, 'bot', 'rules', '10-start.yaml'), 'utf8');
    expect(starter).toMatch(/^# yaml-language-server: \$schema=\.\.\/schemas\/rules\.schema\.json\n#/);
    expect(JSON.parse(await readFile(join(dir, 'bot', 'schemas', 'rules.schema.json'), 'utf8')).title).toBeTruthy();
    expect(await readFile(join(dir, 'bot', '.gitignore'), 'utf8')).toMatch(/^\.hearsay-data\/$/m);
    expect(await readFile(join(dir, 'bot', '.gitignore'), 'utf8')).toMatch(/^\*\.token$/m);
    expect(await readFile(join(dir, 'bot', 'hearsay.yaml'), 'utf8')).toContain('rules: rules');
    expect(await readFile(join(dir, 'bot', 'README.md'), 'utf8')).toContain('npx hearsay start');
    // No path of this machine in anything written: the folder can be committed and cloned anywhere.
    const repository = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
    for (const file of readdirSync(join(dir, 'bot'), { recursive: true, encoding: 'utf8' })) {
      if (statSync(join(dir, 'bot', file)).isDirectory()) continue;
      const text = await readFile(join(dir, 'bot', file), 'utf8');
      expect(text, file).not.toContain(dir);
      expect(text, file).not.toContain(repository);
    }
    const check = spawnSync(process.execPath, [cli, 'check', 'rules/'], { cwd: join(dir, 'bot'), encoding: 'utf8' });
    expect(check.stdout).toContain('1 file, 5 rules, 0 problems');
    expect(check.status).toBe(0);
    expect(await readFile(join(dir, 'bot', 'tests', '10-start.yaml'), 'utf8')).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/schemas\/tests\.schema\.json\n#/,
    );
    const tests = spawnSync(process.execPath, [cli, 'test'], { cwd: join(dir, 'bot'), encoding: 'utf8' });
    expect(tests.stdout).toMatch(/^1 file, 3 tests, 6 steps, 0 failed/);
    expect(tests.status).toBe(0);

    const again = spawnSync(process.execPath, [cli, 'init', 'bot'], { cwd: dir, encoding: 'utf8' });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('hearsay init: bot/rules/10-start.yaml');
    expect(again.stderr).toContain('nothing was written');
    expect(await readFile(join(dir, 'bot', 'rules', '10-start.yaml'), 'utf8')).toBe(starter);
  });

  it('answers with its starter rules under hearsay start (the demo sandbox)', async () => {
    expect(spawnSync(process.execPath, [cli, 'init'], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
    const demo = spawnStart(['--port', '0', '--polling-timeout', '1', '--log-format', 'json'], { env: tokenFreeEnv(), cwd: dir });
    running.push(demo);
    const line = await waitForLogLine(demo, /^Open http/);
    const sandboxUrl = String(line.sandbox);
    const bot = String(line.bot).slice(1);
    const sent = await sendAsUser(sandboxUrl, { id: 4200, first_name: 'Gus' }, bot, 'where is my order 4711?');
    const [reply] = await waitForBotReplies(sandboxUrl, { userId: 4200, bot, after: sent.message_id });
    expect(reply?.text).toBe('Order 4711 is on its way.');
  }, 60_000);

  it('shows a broken rule of the project in the page banner (the rules event), and clears it once fixed', async () => {
    expect(spawnSync(process.execPath, [cli, 'init'], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
    const demo = spawnStart(['--port', '0', '--polling-timeout', '1', '--log-format', 'json'], { env: tokenFreeEnv(), cwd: dir });
    running.push(demo);
    const line = await waitForLogLine(demo, /^Open http/);
    const reader = await SseReader.open(`${String(line.sandbox)}/client/events?user=4300`);
    try {
      const file = join(dir, 'rules', '10-start.yaml');
      const starter = await readFile(file, 'utf8');
      await writeFile(file, starter.replace("    pattern: 'order", "    patern: 'order"));
      const broken = JSON.parse((await reader.next((item) => item.event === 'rules', 15_000)).data ?? 'null') as {
        problems: Array<{ where: string; message: string }>;
      };
      expect(broken.problems).toHaveLength(1);
      expect(broken.problems[0]!.where).toMatch(/^rules\/10-start\.yaml:\d+:\d+$/);
      expect(broken.problems[0]!.message).toContain("did you mean 'pattern'?");
      await writeFile(file, starter);
      const fixed = JSON.parse((await reader.next((item) => item.event === 'rules', 15_000)).data ?? 'null') as { problems: unknown[] };
      expect(fixed.problems).toEqual([]);
    } finally {
      reader.close();
    }
  }, 60_000);
});
