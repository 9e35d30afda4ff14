// A webhook service on the Redis store, as a real `hearsay run` process against the sandbox and a real
// redis-server: a message whose chat has nothing else in hand is stored, begun and its state read in one script
// call, then committed in a second (two script calls per message, not three), and every reply still counts
// right, in order, in each chat.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { freePort, startBotRun, webhookEnv, writeRules } from '../e2e/run-process.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { createBotViaAssistant, sendAsUser } from '../support/sandbox-harness.js';
import { useRedisStoreSetup } from './redis-store-setup.js';

const RULES = [
  'rules:',
  '  - id: count',
  '    fallback: true',
  '    set: { chat.count: { increment: 1 } }',
  '    reply: "{{text}} #{{var.chat.count}}"',
  '',
].join('\n');

/** Script calls the server ran (an EVALSHA it did not have the script for is not one). */
async function scriptsRun(admin: Redis): Promise<number> {
  const info = await admin.info('commandstats');
  let ran = 0;
  for (const [, , calls, rest] of info.matchAll(/^cmdstat_(evalsha|eval):calls=(\d+)(.*)$/gm)) {
    const refused = [...rest!.matchAll(/(?:rejected|failed)_calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    ran += Number(calls) - refused;
  }
  return ran;
}

describe('webhook on the Redis store: the steps of a message', () => {
  const setup = useRedisStoreSetup();

  it('two script calls per message (store with intent and state, then commit), every count right and in order', async () => {
    const { sandbox, redis, running } = setup;
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 650, name: 'Counter', username: `counter_${process.pid % 10_000}_bot` });
    const rules = await writeRules(RULES);
    const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-steps-'));
    const port = await freePort();
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const run = startBotRun(
      { baseUrl: sandbox.baseUrl, token: bot.token, rulesDir: rules.dir, dataDir, running },
      { HEARSAY_MODE: 'webhook', ...webhookEnv(port, 'steps-Secret_42'), HEARSAY_STORE: redis.url, HEARSAY_LOG_LEVEL: 'info' },
    );
    await run.waitForLine(/hearsay is running/);
    const admin = new Redis(redis.url);
    try {
      // The first message loads the scripts into the server.
      await sendAsUser(sandbox.baseUrl, 660, bot.username, 'warm');
      await ledger.waitForReplies(1, 15_000);
      const before = await scriptsRun(admin);
      const users = [661, 662];
      // One at a time (each answered before the next goes), so that no script call carries two messages' steps.
      let sent = 1;
      for (let i = 0; i < 8; i++) {
        for (const user of users) {
          await sendAsUser(sandbox.baseUrl, user, bot.username, `m${i}`);
          await ledger.waitForReplies(++sent, 15_000);
        }
      }
      const perMessage = ((await scriptsRun(admin)) - before) / 16;
      for (const user of users) expect(ledger.replies.get(user)).toEqual(Array.from({ length: 8 }, (_, i) => `m${i} #${i + 1}`));
      // Three before (store; begin with the state read; commit); the lease's renewal may fall in the window.
      expect(perMessage).toBeLessThanOrEqual(2.2);
    } finally {
      admin.disconnect();
      ledger.close();
    }
  }, 60_000);
});
