// Conversations through the real `hearsay run` process against the sandbox: variables and a flow kept in
// the journal across a restart (the flow goes on at the right step), a flow timeout the bot writes on its
// own (also one that fell due across a restart), and `hearsay state show|forget` with the bot running and
// with it stopped.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBotViaAssistant, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { NAME_MEMORY_RULES } from '../support/name-memory-rules.js';
import { runCli, startBotRun, writeRules } from './run-process.js';
import { sandboxAndRuns } from './sandbox-and-runs.js';

const RULES = `
rules:
${NAME_MEMORY_RULES}flows:
  - id: booking
    start: { command: book }
    timeout: { after: 1h, reply: "Booking timed out." }
    steps:
      - id: date
        ask: "For which date?"
        accept: { pattern: '^(?<value>friday|monday)$' }
      - id: size
        ask: "How many people?"
        accept: { number: { min: 1, max: 12 } }
    done:
      - set: { user.last_booking: "{{flow.date}}" }
        reply: "Booked: {{flow.size}} people on {{flow.date}}."
  - id: quick
    start: { command: quick }
    timeout: { after: 2s, reply: "Quick timed out." }
    steps:
      - id: answer
        ask: "Quick, say something!"
`;

describe('conversations end to end', () => {
  const { sandbox, running } = sandboxAndRuns();

  it('keeps variables and flows across restarts, times flows out on its own, and shows and forgets a user', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 600, name: 'Conv', username: 'conversations_e2e_bot' });
    const rules = await writeRules(RULES);
    const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-conv-data-'));
    const env = { BOT_TOKEN: bot.token, BASE_URL: sandbox.baseUrl, HEARSAY_RULES: rules.dir, HEARSAY_DATA_DIR: dataDir, HEARSAY_POLLING_TIMEOUT: '1' };
    const settings = { baseUrl: sandbox.baseUrl, token: bot.token, rulesDir: rules.dir, dataDir, running };
    const launch = async () => {
      const run = startBotRun(settings, { HEARSAY_POLLING_TIMEOUT: '1', HEARSAY_LOG_LEVEL: 'info' });
      await run.waitForLine(/hearsay is running/);
      return run;
    };
    const user = 601;
    let last = 0;
    const say = async (text: string, count = 1) => {
      await sendAsUser(sandbox.baseUrl, user, bot.username, text);
      const replies = await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, after: last, count, timeoutMs: 10_000 });
      last = replies[replies.length - 1]!.message_id;
      return replies.map((m) => m.text);
    };
    const nextReply = async () => {
      const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, after: last, timeoutMs: 10_000 });
      last = reply!.message_id;
      return reply!.text;
    };

    let run = await launch();
    expect(await say('my name is Ada')).toEqual(['Nice to meet you, Ada!']);
    expect(await say('/book')).toEqual(['For which date?']);
    expect(await say('Friday')).toEqual(['How many people?']);
    expect(await run.stop('SIGTERM')).toBe(0);

    // A restart: the name and the flow position come back from the journal.
    run = await launch();
    expect(await say('4')).toEqual(['Booked: 4 people on Friday.']);
    expect(await say('hi')).toEqual(['Hi again, Ada!']);

    // A timeout the bot writes on its own, without a message from the user.
    expect(await say('/quick')).toEqual(['Quick, say something!']);
    expect(await nextReply()).toBe('Quick timed out.');
    await run.waitForLine(/"rule":"quick#timeout".*flow timed out|flow timed out.*quick#timeout/);

    // A flow left open by a stopped bot times out once it runs again (at once if its time has passed).
    expect(await say('/quick')).toEqual(['Quick, say something!']);
    expect(await run.stop('SIGTERM')).toBe(0);
    run = await launch();
    expect(await nextReply()).toBe('Quick timed out.');

    // hearsay state while the bot runs: it answers the request.
    const shown = await runCli(['state', 'show', '--user', String(user)], env);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({
      userId: user,
      variables: { name: 'Ada', last_booking: 'Friday', _private: expect.any(Number) },
      flows: [],
      effects: [],
    });
    expect(await say('/book')).toEqual(['For which date?']);
    const forgotten = await runCli(['state', 'forget', '--user', String(user)], env);
    expect(forgotten).toMatchObject({ code: 0, stdout: 'forgot user 601: 3 variables, 1 unfinished flow\n' });
    expect(await say('hi')).toEqual(['Hi! Who are you?']);

    // ... and while it is stopped: the command works on the journal itself, which the next run reads as before.
    expect(await say('my name is Grace')).toEqual(['Nice to meet you, Grace!']);
    expect(await run.stop('SIGTERM')).toBe(0);
    const stopped = await runCli(['state', 'show', '--user', String(user)], env);
    expect(JSON.parse(stopped.stdout)).toEqual({ userId: user, variables: { name: 'Grace', _private: expect.any(Number) }, flows: [], effects: [] });
    expect((await runCli(['state', 'forget', '--user', String(user)], env)).stdout).toBe('forgot user 601: 2 variables, 0 unfinished flows\n');
    run = await launch();
    expect(await say('hi')).toEqual(['Hi! Who are you?']);
    expect(await run.stop('SIGTERM')).toBe(0);
    for (const r of running) expect(r.lines.join('\n')).not.toContain(bot.token);
  }, 60_000);
});
