// The single executable (npm run build:binary) must run `check`, `test`, `run`, `init` and `start` on its own, with
// no node_modules or dist/ beside it: copied into an empty temp directory and run from there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBotViaAssistant, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { startRun } from '../e2e/run-process.js';
import { spawnStart, tokenFreeEnv, waitForLogLine, type StartedDemo } from '../start/start-process.js';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';

const root = new URL('../..', import.meta.url).pathname;
let dir: string;
let binary: string;

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts/build-binary.mjs')], { cwd: root, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'hearsay-binary-'));
  binary = join(dir, 'hearsay');
  copyFileSync(join(root, 'build/hearsay'), binary);
  execFileSync('chmod', ['+x', binary]);
  mkdirSync(join(dir, 'rules'));
  writeFileSync(
    join(dir, 'rules', 'bot.yaml'),
    [
      'rules:',
      '  - id: start',
      '    command: start',
      '    reply: "Hi {{user.first_name}}, from one file."',
      '  - id: echo',
      "    pattern: 'say (?<what>\\w+)'",
      '    reply: "You said {{match.what}}"',
      '',
    ].join('\n'),
  );
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the single executable', () => {
  it('prints its version and checks rules on its own', () => {
    const version = spawnSync(binary, ['--version'], { cwd: dir, encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

    const good = spawnSync(binary, ['check', 'rules'], { cwd: dir, encoding: 'utf8' });
    expect(good.stdout).toContain('1 file, 2 rules, 0 problems');
    expect(good.status).toBe(0);

    writeFileSync(join(dir, 'broken.yaml'), 'rules:\n  - id: x\n    text: hi\n    repyl: oops\n');
    const bad = spawnSync(binary, ['check', 'broken.yaml'], { cwd: dir, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stdout + bad.stderr).toMatch(/broken\.yaml:4:5: .*repyl/);
  });

  it('runs conversation tests on its own', () => {
    mkdirSync(join(dir, 'tests'));
    writeFileSync(
      join(dir, 'tests', 'bot.yaml'),
      'tests:\n  - name: start\n    steps:\n      - say: /start\n        expect: "Hi Ann, from one file."\n      - say: say what\n        expect: nothing\n',
    );
    const result = spawnSync(binary, ['test'], { cwd: dir, encoding: 'utf8' });
    expect(result.stdout).toContain(
      'FAIL tests/bot.yaml:6:9: start, step 2 (say: say what): the bot did not answer as expected\n    - nothing\n    + "You said what"\n',
    );
    expect(result.status).toBe(1);
  });

  describe('run against the sandbox', () => {
    const { sandbox } = sandboxAndRuns();

    it('answers messages and stops cleanly on SIGTERM', async () => {
      const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 501, name: 'Binary bot', username: 'binary_test_bot' });
      const run = startRun({
        executable: binary,
        cwd: dir,
        env: { BOT_TOKEN: bot.token, BASE_URL: sandbox.baseUrl, HEARSAY_POLLING_TIMEOUT: '1', HEARSAY_DATA_DIR: join(dir, 'data') },
        args: ['--rules', 'rules'],
      });
      try {
        const first = await sendAsUser(sandbox.baseUrl, { id: 777, first_name: 'Ada' }, bot.username, '/start');
        const [welcome] = await waitForBotReplies(sandbox.baseUrl, { userId: 777, bot: bot.username, after: first.message_id, timeoutMs: 15_000 });
        expect(welcome?.text).toBe('Hi Ada, from one file.');
        const second = await sendAsUser(sandbox.baseUrl, { id: 777, first_name: 'Ada' }, bot.username, 'please say cheese');
        const [echo] = await waitForBotReplies(sandbox.baseUrl, { userId: 777, bot: bot.username, after: second.message_id, timeoutMs: 10_000 });
        expect(echo?.text).toBe('You said cheese');
      } finally {
        expect(await run.stop('SIGTERM')).toBe(0);
      }
      expect(run.lines.join('\n')).not.toContain(bot.token);
    });
  });

  describe('start and init', () => {
    const started: StartedDemo[] = [];
    afterAll(async () => {
      for (const demo of started) {
        if (demo.child.exitCode === null) demo.child.kill('SIGTERM');
        await demo.exited;
      }
    });

    async function startAndAsk(cwd: string, user: number, text: string): Promise<{ demo: StartedDemo; reply: string | undefined }> {
      const demo = spawnStart(['--port', '0', '--log-format', 'json', '--polling-timeout', '1'], { env: tokenFreeEnv(), cwd, executable: binary });
      started.push(demo);
      const ready = await waitForLogLine(demo, /^Open http/);
      const baseUrl = String(ready.sandbox);
      const bot = String(ready.bot).slice(1);
      const sent = await sendAsUser(baseUrl, { id: user, first_name: 'Ivy' }, bot, text);
      const [reply] = await waitForBotReplies(baseUrl, { userId: user, bot, after: sent.message_id, timeoutMs: 15_000 });
      return { demo, reply: reply?.text };
    }

    it('starts the demo with its built-in rules in a folder without rules/', async () => {
      const empty = join(dir, 'empty');
      mkdirSync(empty);
      const { demo, reply } = await startAndAsk(empty, 901, '/start');
      expect(reply).toBe('Welcome to the Corner Shop desk, Ivy! I can track orders and answer questions. Try /help.');
      expect(demo.output()).toContain('there is no rules/ folder here, so the demo answers with its built-in rules');
      demo.child.kill('SIGTERM');
      expect(await demo.exited).toBe(0);
    }, 60_000);

    it('scaffolds a bot with init that start then answers', async () => {
      const init = spawnSync(binary, ['init', 'my-bot'], { cwd: dir, encoding: 'utf8' });
      expect(init.status).toBe(0);
      // Typed after `cd my-bot`, the executable is named relative to that folder.
      expect(init.stdout).toContain('  cd my-bot\n');
      expect(init.stdout).toContain('../hearsay start');
      const { demo, reply } = await startAndAsk(join(dir, 'my-bot'), 902, '/start');
      expect(reply).toBe('Hello, Ivy! I am a brand-new bot. Try /help.');
      demo.child.kill('SIGTERM');
      expect(await demo.exited).toBe(0);
    }, 60_000);
  });
});
