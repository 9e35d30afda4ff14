// `hearsay state show|forget` on a Redis store, and `state.max_user_bytes` kept there as on the file store:
// a real `hearsay run` replica and a real redis-server. The command reads and forgets in Redis directly while
// the replica runs; the replica then starts the user from nothing. A change that would make a user's
// variables larger than the bound is not kept (the message is still answered, and the warning says so).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runCli, startRun, writeRules, type RunProcess } from '../e2e/run-process.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { createBotViaAssistant, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';
import { NAME_MEMORY_RULES } from '../support/name-memory-rules.js';

const RULES = `
rules:
${NAME_MEMORY_RULES}  - id: note
    pattern: '^note (?<note>.+)$'
    set: { user.note: "{{match.note}}" }
    reply: "Noted."
flows:
  - id: booking
    start: { command: book }
    steps:
      - id: date
        ask: "For which date?"
`;

describe('hearsay state on a Redis store', () => {
  let sandbox: StartedSandbox;
  let redis: RedisServer;
  const running: RunProcess[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop('SIGKILL')));
    await sandbox?.close();
    await redis?.close();
  });

  it('shows and forgets a user while a replica runs; a change past state.max_user_bytes is not kept', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 650, name: 'StateRedis', username: `state_redis_${process.pid}_bot` });
    const rules = await writeRules(RULES);
    const env = {
      BOT_TOKEN: bot.token,
      BASE_URL: sandbox.baseUrl,
      HEARSAY_RULES: rules.dir,
      HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-state-redis-')),
      HEARSAY_STORE: redis.url,
      HEARSAY_STATE_MAX_USER_BYTES: '1024',
    };
    const run = startRun({ env: { ...env, HEARSAY_POLLING_TIMEOUT: '1', HEARSAY_LOG_LEVEL: 'info', HEARSAY_RATE_LIMITS_ENABLED: 'false' } });
    running.push(run);
    await run.waitForLine(/hearsay is running/, 20_000);
    const user = 651;
    let last = 0;
    const say = async (text: string) => {
      await sendAsUser(sandbox.baseUrl, user, bot.username, text);
      const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, after: last, timeoutMs: 10_000 });
      last = reply!.message_id;
      return reply!.text;
    };

    expect(await say('my name is Ada')).toBe('Nice to meet you, Ada!');
    expect(await say('note short')).toBe('Noted.');
    // Past the bound: answered, but the variables keep their old value.
    expect(await say(`note ${'x'.repeat(1100)}`)).toBe('Noted.');
    await run.waitForLine(/would pass state\.max_user_bytes/);
    expect(await say('/book')).toBe('For which date?');

    const shown = await runCli(['state', 'show', '--user', String(user)], env);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(shown.stdout)).toMatchObject({
      userId: user,
      variables: { name: 'Ada', note: 'short' },
      flows: [{ chatId: user, flowId: 'booking', stepId: 'date' }],
    });

    const forgotten = await runCli(['state', 'forget', '--user', String(user)], env);
    expect(forgotten).toMatchObject({ code: 0, stdout: 'forgot user 651: 3 variables, 1 unfinished flow\n' });
    expect(JSON.parse((await runCli(['state', 'show', '--user', String(user)], env)).stdout)).toEqual({
      userId: user,
      variables: null,
      flows: [],
      effects: [],
    });
    // The running replica starts the user from nothing: no name, no open flow.
    expect(await say('hi')).toBe('Hi! Who are you?');
  }, 60_000);

  it('a Redis store that cannot be reached: exit 1, host:port and why, no password', async () => {
    const port = await freePort();
    const password = 'state-Pass_word_91';
    const result = await runCli(['state', 'show', '--user', '1'], {
      BOT_TOKEN: '123456:state-redis-token',
      HEARSAY_STORE: `redis://127.0.0.1:${port}/0`,
      HEARSAY_STORE_PASSWORD: password,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^hearsay state show: cannot reach the Redis store at 127\\.0\\.0\\.1:${port}\\b.*connection refused.*HEARSAY_STORE`),
    );
    expect(result.stderr + result.stdout).not.toContain(password);
  });
});
