// Issue 10, item 3: a 401 is never the message's fault. When the token is revoked (or wrong) while running,
// hearsay stops taking updates (webhook: 503, so the service keeps them), marks nothing in flight as done,
// says which setting to fix, and exits non-zero; started again with the new token it answers every message.
import { describe, expect, it } from 'vitest';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';
import { askAssistant, injectFault, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { setUpBot } from './bot-process.js';
import { ReplyLedger } from '../support/reply-ledger.js';

const TOKEN_MESSAGE = /token was rejected \(401 Unauthorized\): it was revoked .* or is wrong; set the bot's current token in BOT_TOKEN/;

describe('a revoked token loses nothing (issue 10, item 3)', () => {
  const { sandbox, running } = sandboxAndRuns({ webhook: { retryBaseMs: 50, retryMaxMs: 300 } }, { afterEachTest: true, clearFaultsAfterEachTest: true });

  /** Revokes the bot's token through BotMaker's /token conversation, as its owner would; returns the new one. */
  async function revokeToken(ownerId: number, username: string): Promise<string> {
    await askAssistant(sandbox.baseUrl, ownerId, '/token');
    const answer = await askAssistant(sandbox.baseUrl, ownerId, `@${username}`);
    const token = /\d+:[A-Za-z0-9_-]{35}/.exec(answer)?.[0];
    if (!token) throw new Error(`BotMaker gave no new token: ${answer}`);
    return token;
  }

  it('webhook: revoked while running, it stops acknowledging, exits 1 naming BOT_TOKEN, and the new token answers all', async () => {
    const { bot, ownerId, launch } = await setUpBot(sandbox, 'webhook', running);
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const run = await launch();
    const hello = await sendAsUser(sandbox.baseUrl, 81, bot.username, 'hello');
    await waitForBotReplies(sandbox.baseUrl, { userId: 81, bot: bot.username, after: hello.message_id, timeoutMs: 10_000 });

    const newToken = await revokeToken(ownerId, bot.username);
    for (const text of ['a', 'b', 'c', 'd', 'e']) await sendAsUser(sandbox.baseUrl, 82 + (text.charCodeAt(0) % 2), bot.username, text);
    expect(await run.exited).toBe(1);
    expect(run.lines.join('\n')).toMatch(TOKEN_MESSAGE);
    expect(ledger.replyCount).toBe(1);

    const again = await launch({ token: newToken });
    await ledger.waitForReplies(6, 15_000);
    expect([...(ledger.replies.get(82) ?? []), ...(ledger.replies.get(83) ?? [])].sort()).toEqual(['v1: a', 'v1: b', 'v1: c', 'v1: d', 'v1: e']);
    expect(await again.stop('SIGTERM')).toBe(0);
    expect(ledger.replyCount).toBe(6);
    ledger.close();
  }, 60_000);

  it('polling: a reply refused with 401 is not marked done; the process exits 1 and the next run answers it', async () => {
    const { bot, launch } = await setUpBot(sandbox, 'polling', running);
    const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
    const run = await launch();
    await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'sendmessage', status: 401, count: 1 });
    for (const text of ['p1', 'p2', 'p3', 'p4']) await sendAsUser(sandbox.baseUrl, 91, bot.username, text);
    expect(await run.exited).toBe(1);
    expect(run.lines.join('\n')).toMatch(TOKEN_MESSAGE);

    const again = await launch();
    await ledger.waitForReplies(4, 15_000);
    expect(ledger.replies.get(91)).toEqual(['v1: p1', 'v1: p2', 'v1: p3', 'v1: p4']);
    expect(await again.stop('SIGTERM')).toBe(0);
    ledger.close();
  }, 60_000);
});
