// A rule file hearsay may not read is a reload failure at once, never silently left out: `hearsay run`
// logs the file with the problem, /metrics shows hearsay_reload_success 0, and the last good rules keep
// answering. Root reads any file whatever its mode, so when the tests run as root the service runs as
// `nobody` (setpriv), for which a mode-000 file really is unreadable.
import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startRun, type RunProcess } from '../e2e/run-process.js';
import { fetchText } from '../e2e/chat-checks.js';
import { createBotViaAssistant, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';

const rule = (id: string, text: string, reply: string) => `rules:\n  - id: ${id}\n    text: ${text}\n    reply: ${reply}\n`;

const asRoot = process.getuid?.() === 0;
const nobody = asRoot ? spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }) : undefined;
const canDrop = nobody?.status === 0 && spawnSync('setpriv', ['--version']).status === 0;
/** What runs the service so that file modes hold for it: setpriv as `nobody` under root, nothing otherwise. */
const wrapper = asRoot ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'] : [];

describe.skipIf(process.platform === 'win32' || (asRoot && !canDrop))('a rule file the service cannot read', () => {
  let sandbox: StartedSandbox;
  const dirs: string[] = [];
  const running: RunProcess[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    for (const run of running) await run.stop('SIGKILL');
    await sandbox.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** A folder the service's user may read (rules) or also write (data). */
  async function folder(prefix: string, writable: boolean): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    await chmod(dir, 0o755);
    if (writable && asRoot) await chown(dir, Number(nobody!.stdout.trim()), -1);
    return dir;
  }

  it('is reported at once as a reload failure (log with the file, metric 0), and the last good rules keep answering', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 7300, name: 'Unreadable', username: 'unreadable_rules_bot' });
    const rules = await folder('hearsay-unreadable-rules-', false);
    await writeFile(join(rules, 'a.yaml'), rule('hi', 'hi', 'hello'));
    const port = await freePort();
    const env = {
      BOT_TOKEN: bot.token,
      BASE_URL: sandbox.baseUrl,
      HEARSAY_RULES: rules,
      HEARSAY_DATA_DIR: await folder('hearsay-unreadable-data-', true),
      HEARSAY_POLLING_TIMEOUT: '1',
      HEARSAY_ADMIN_LISTEN: `127.0.0.1:${port}`,
    };
    const run = startRun({ env, wrapper, cwd: tmpdir() });
    running.push(run);
    await run.waitForLine(/hearsay is running/);
    const reloadSuccess = async () => /^hearsay_reload_success (\d)$/m.exec((await fetchText(`http://127.0.0.1:${port}/metrics`)).text)?.[1];
    const failures = () => run.lines.filter((line) => line.includes('rule reload failed')).length;
    let user = 7301;
    const answer = async (text: string) => {
      user += 1; // a new chat each time: its first bot message is the answer
      const sent = await sendAsUser(sandbox.baseUrl, user, bot.username, text);
      const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, after: sent.message_id });
      return reply?.text;
    };
    const unreadable = (file: string) => new RegExp(`"msg":"${join(rules, file)}: cannot read the file: permission denied"`);

    // A new file created unreadable (mode 000).
    await writeFile(join(rules, 'b.yaml'), rule('bye', 'bye', 'see you'), { mode: 0o000 });
    await run.waitForLine(unreadable('b.yaml'));
    await run.waitForLine(/rule reload failed; keeping the previous rules/);
    await expect.poll(reloadSuccess).toBe('0');
    expect(await answer('hi')).toBe('hello');

    // Readable again: its rules answer.
    await chmod(join(rules, 'b.yaml'), 0o644);
    await run.waitForLine(/"rules":2,"files":2.*"msg":"rules reloaded"/);
    await expect.poll(reloadSuccess).toBe('1');
    expect(await answer('bye')).toBe('see you');

    // Written, then made unreadable at once (before the watcher looked).
    const before = failures();
    await writeFile(join(rules, 'c.yaml'), rule('later', 'later', 'see you later'));
    await chmod(join(rules, 'c.yaml'), 0o000);
    await run.waitForLine(unreadable('c.yaml'));
    await expect.poll(failures).toBeGreaterThan(before);
    await expect.poll(reloadSuccess).toBe('0');
    await unlink(join(rules, 'c.yaml'));
    await expect.poll(reloadSuccess).toBe('1');

    // A chmod alone (no change of content) of a file already loaded, and back.
    await chmod(join(rules, 'a.yaml'), 0o000);
    await run.waitForLine(unreadable('a.yaml'));
    await expect.poll(reloadSuccess).toBe('0');
    expect(await answer('hi')).toBe('hello');
    await chmod(join(rules, 'a.yaml'), 0o644);
    await expect.poll(reloadSuccess).toBe('1');

    expect(await run.stop('SIGTERM')).toBe(0);
  }, 60_000);
});
