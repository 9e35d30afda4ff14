// "typing…" through the whole service against the sandbox: a reply split into several messages that the per-chat
// rate limit spreads over seconds shows the bot typing in that chat, once, while it goes out. (That a reply done
// within the second shows nothing is asserted in test/delivery/typing-hint.test.ts, where no machine load can
// stretch a reply past it.)
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { createBotViaAssistant, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';

// Three paragraphs of ~3,000 characters: too long for one message, so the reply goes out as three.
const LONG = Array.from({ length: 3 }, (_, index) => `Part ${index + 1}: ${'terms and conditions '.repeat(140)}`).join('\\n\\n');
const RULES = `
rules:
  - id: terms
    text: terms
    reply: "${LONG}"
`;

describe('typing… for a long reply', () => {
  let sandbox: StartedSandbox;
  let running: RunningService | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await running?.stop();
    await sandbox.close();
  });

  it('shows typing while a three-message reply goes out at one message a second, in the user chat only', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9100, name: 'Terms', username: 'terms_typing_bot' });
    const dir = await mkdtemp(join(tmpdir(), 'hearsay-typing-'));
    await mkdir(join(dir, 'rules'));
    await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
    const secrets = new Secrets();
    const config = await loadConfig({
      cwd: dir,
      env: {
        BOT_TOKEN: bot.token,
        BASE_URL: sandbox.baseUrl,
        HEARSAY_RULES: 'rules',
        HEARSAY_DATA_DIR: join(dir, 'data'),
        HEARSAY_POLLING_TIMEOUT: '1',
        HEARSAY_RATE_LIMITS_PER_CHAT_PER_SECOND: '1',
      },
      secrets,
    });
    running = await startService(config, { logger: createLogger({ level: 'silent', secrets }) });
    const calls: string[] = [];
    const unsubscribe = sandbox.sandbox.onBotApiCall(({ bot: caller, method, params, ok }) => {
      if (caller.toLowerCase() !== bot.username || !ok) return;
      if (method === 'sendchataction') calls.push(`${method} ${String(params.chat_id)} ${String(params.action)}`);
      if (method === 'sendmessage') calls.push(`${method} ${String(params.chat_id)}`);
    });

    const terms = await sendAsUser(sandbox.baseUrl, 9102, bot.username, 'terms');
    const parts = await waitForBotReplies(sandbox.baseUrl, { userId: 9102, bot: bot.username, after: terms.message_id, count: 3, timeoutMs: 20_000 });
    unsubscribe();
    expect(parts.map((part) => part.text!.slice(0, 7))).toEqual(['Part 1:', 'Part 2:', 'Part 3:']);
    // Typing shows after the first message (sent at once) and before the last, in the user's chat only.
    expect(calls.filter((call) => call.startsWith('sendchataction'))).toEqual(['sendchataction 9102 typing']);
    expect(calls[0]).toBe('sendmessage 9102');
    expect(calls.at(-1)).toBe('sendmessage 9102');
  }, 60_000);
});
