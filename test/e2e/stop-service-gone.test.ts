// A hang detector, not a benchmark: with the Bot API service gone mid-traffic (its process frozen, so
// requests get no answer at all, or killed, so connections are refused), SIGTERM still ends `hearsay run`
// within delivery.shutdown_timeout plus a small margin, in both ingress modes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBotViaAssistant, sendAsUser } from '../support/sandbox-harness.js';
import { freePort, startRun, versionedRules, writeRules, type RunProcess } from './run-process.js';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;

async function startSandboxProcess(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [cli, 'sandbox', '--port', String(port), '--log-level', 'warn'], { stdio: 'ignore' });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(`${baseUrl}/client/messages?user=1&with=BotMaker&after=0&wait=0`);
      return { child, baseUrl };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error('the sandbox did not start');
}

const SHUTDOWN_TIMEOUT_S = 2;
/** The stop promises shutdown_timeout + 2 s; the rest is slack for a busy machine. */
const EXIT_BOUND_MS = SHUTDOWN_TIMEOUT_S * 1000 + 4_000;

describe.each([
  ['polling', 'SIGSTOP'],
  ['webhook', 'SIGSTOP'],
  ['polling', 'SIGKILL'],
] as const)('hearsay run (%s) stopping with the service gone (%s)', (mode, signal) => {
  const children: ChildProcess[] = [];
  const runs: RunProcess[] = [];
  afterEach(async () => {
    await Promise.all(runs.splice(0).map((run) => run.stop('SIGKILL')));
    for (const child of children.splice(0)) child.kill('SIGKILL'); // also ends a stopped process
  });

  it('exits within the shutdown timeout plus a margin after SIGTERM', async () => {
    const sandbox = await startSandboxProcess();
    children.push(sandbox.child);
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 501, name: 'Stopper', username: `stop_${mode}_${signal.toLowerCase()}_bot` });
    const rules = await writeRules(versionedRules('v1'));
    const port = await freePort();
    const run = startRun({
      env: {
        BOT_TOKEN: bot.token,
        BASE_URL: sandbox.baseUrl,
        HEARSAY_RULES: rules.dir,
        HEARSAY_MODE: mode,
        HEARSAY_LOG_LEVEL: 'debug',
        HEARSAY_DELIVERY_SHUTDOWN_TIMEOUT: String(SHUTDOWN_TIMEOUT_S),
        HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-stop-data-')),
        ...(mode === 'webhook'
          ? { HEARSAY_WEBHOOK_URL: `http://127.0.0.1:${port}`, HEARSAY_WEBHOOK_LISTEN: `127.0.0.1:${port}`, HEARSAY_WEBHOOK_PATH: '/hook' }
          : {}),
      },
    });
    runs.push(run);
    await run.waitForLine(/hearsay is running/);
    // Traffic in flight (the default rate limits keep several replies waiting), then the service dies.
    for (let i = 0; i < 5; i++) for (const user of [601, 602, 603]) await sendAsUser(sandbox.baseUrl, user, bot.username, `hello ${i}`);
    await run.waitForLine(/"update handled"/, 10_000);
    sandbox.child.kill(signal);
    if (signal === 'SIGKILL') await new Promise((resolve) => sandbox.child.once('exit', resolve));
    const started = Date.now();
    run.child.kill('SIGTERM');
    const exitedInTime = await Promise.race([run.exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), EXIT_BOUND_MS))]);
    const took = Date.now() - started;
    expect(exitedInTime, `still running ${took} ms after SIGTERM; output:\n${run.lines.slice(-30).join('\n')}`).toBe(true);
    expect(run.lines.some((line) => /"msg":"stopped"/.test(line))).toBe(true);
  });
});
