// Issue 29, item 11, against real `hearsay run` processes: a lock left in data_dir by an instance on another
// host (a recreated container, a new pod, after an OOM kill or a node failure) no longer blocks every start.
// Once nothing has renewed it for 30 s it is taken over; while it is renewed the start is refused at once
// with what to do.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { leaveLock } from '../store/file/lock-processes.js';
import { setUpBot } from './bot-process.js';

describe('a lock left by a crash (issue 29, item 11)', () => {
  const { sandbox, running } = sandboxAndRuns(undefined, { afterEachTest: true });

  it('a lock of another host that nothing renews is taken over: the bot starts, says so, and answers', async () => {
    const { bot, stateDir, launch } = await setUpBot(sandbox, 'polling', running);
    await mkdir(stateDir, { recursive: true });
    leaveLock(stateDir, { pid: 1, host: 'hearsay-5f7c9-old', bootId: 'the-old-node', processStart: '4242' }, 45_000);
    const run = await launch();
    const warning = JSON.parse(run.lines.find((line) => line.includes('took over the instance lock'))!) as Record<string, unknown>;
    expect(warning).toMatchObject({ level: 40, msg: 'took over the instance lock left by an instance that is gone' });
    expect(warning.previous_owner).toMatch(/^pid 1 on hearsay-5f7c9-old, running in polling mode since /);
    expect(warning.reason).toMatch(/^it ran on another host, and nothing has renewed it for 4\d s$/);
    const sent = await sendAsUser(sandbox.baseUrl, 91, bot.username, 'back?');
    const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId: 91, bot: bot.username, after: sent.message_id, timeoutMs: 10_000 });
    expect(reply?.text).toBe('v1: back?');
    expect(await run.stop('SIGTERM')).toBe(0);
    expect(existsSync(join(stateDir, 'instance.lock'))).toBe(false);
  }, 30_000);

  it('a lock of another host renewed a moment ago refuses the start at once (exit 1), saying when it would be taken over', async () => {
    const { stateDir, launch } = await setUpBot(sandbox, 'polling', running);
    await mkdir(stateDir, { recursive: true });
    leaveLock(stateDir, { pid: 1, host: 'hearsay-5f7c9-live', bootId: 'the-other-node' }, 2_000);
    const run = await launch({ wait: false });
    expect(await run.exited).toBe(1);
    const output = run.lines.join('\n');
    expect(output).toContain('error code HS_ERR_INSTANCE_LOCKED');
    expect(output).toMatch(/pid 1 on hearsay-5f7c9-live, running in polling mode since .*; it ran on another host, and it was renewed \d s ago/);
    expect(output).toMatch(/if it is gone \(its host or container removed\), its lock is taken over once nothing has renewed it for 30 s: start again then/);
    expect(output).not.toMatch(/\n\s+at /);
    expect(existsSync(join(stateDir, 'instance.lock'))).toBe(true);
  }, 30_000);
});
