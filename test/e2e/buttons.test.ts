// Buttons through the real `hearsay run` process against the sandbox, in polling and in webhook mode: the
// poll's reply carries its inline keyboard, a press gets the rule's notification and edits the message, a
// press no rule answers still stops spinning, and messages and presses of one chat, sent back to back, are
// handled in order.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBotViaAssistant, pressButton, sendAsUser, waitForBotReplies, waitForChat, type ClientMessage } from '../support/sandbox-harness.js';
import { freePort, startBotRun, webhookEnv, writeRules } from './run-process.js';
import { sandboxAndRuns } from './sandbox-and-runs.js';

const RULES = `
rules:
  - id: poll
    command: poll
    reply: "Where should the next meetup be?"
    buttons:
      - [{ text: "Café Kiez", data: "vote:kiez" }, { text: "Park Café", data: "vote:park" }]
      - [{ text: "Our website", url: "https://example.com" }]
  - id: vote
    callback: '^vote:(?<choice>\\w+)$'
    answer: "Thanks!"
    edit: "You chose {{match.choice}}."
  - id: count
    command: count
    reply: "Counter"
    buttons: [[{ text: "+1", data: "n:{{text}}" }, { text: "dead", data: "nobody" }]]
  - id: counted
    callback: '^n:(?<label>.*)$'
    reply: "pressed {{match.label}}"
  - id: echo
    pattern: '^m(?<n>\\d+)$'
    reply: "message {{match.n}}"
`;

describe('buttons end to end', () => {
  const { sandbox, running } = sandboxAndRuns();

  /** The settings of one ingress mode: polling, or a webhook the sandbox delivers to on a free loopback port. */
  async function ingress(mode: 'polling' | 'webhook'): Promise<Record<string, string>> {
    if (mode === 'polling') return { HEARSAY_POLLING_TIMEOUT: '1' };
    return { HEARSAY_MODE: 'webhook', ...webhookEnv(await freePort(), 'buttons_e2e-Secret_7') };
  }

  it.each([
    ['polling', 700],
    ['webhook', 710],
  ] as const)(
    '%s: shows the poll with its buttons, answers a press with the toast and the edit, and keeps presses in order with messages',
    async (mode, owner) => {
      const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: owner, name: 'Buttons', username: `buttons_${mode}_e2e_bot` });
      const rules = await writeRules(RULES);
      const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-buttons-data-'));
      const settings = { baseUrl: sandbox.baseUrl, token: bot.token, rulesDir: rules.dir, dataDir, running };
      const run = startBotRun(settings, { HEARSAY_LOG_LEVEL: 'info', ...(await ingress(mode)) });
      expect(await run.waitForLine(/hearsay is running/)).toContain(`"mode":"${mode}"`);
      const user = owner + 1;

      await sendAsUser(sandbox.baseUrl, user, bot.username, '/poll');
      const [poll] = (await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, timeoutMs: 10_000 })) as ClientMessage[];
      expect(poll!.text).toBe('Where should the next meetup be?');
      expect(poll!.reply_markup).toEqual({
        inline_keyboard: [
          [
            { text: 'Café Kiez', callback_data: 'vote:kiez' },
            { text: 'Park Café', callback_data: 'vote:park' },
          ],
          [{ text: 'Our website', url: 'https://example.com' }],
        ],
      });

      const pressed = await pressButton(sandbox.baseUrl, user, { messageId: poll!.message_id, data: 'vote:park', wait: 10 });
      expect(pressed.answer).toMatchObject({ status: 'answered', text: 'Thanks!' });
      const chat = await waitForChat(sandbox.baseUrl, {
        userId: user,
        peer: bot.username,
        until: (messages) => messages.some((m) => m.message_id === poll!.message_id && m.text === 'You chose park.'),
        timeoutMs: 10_000,
      });
      const edited = chat.find((m) => m.message_id === poll!.message_id)!;
      expect(edited.reply_markup).toBeUndefined(); // an edit without buttons removes them, as on the real service
      await run.waitForLine(/"rule":"vote"/);

      // A press of a button no rule answers: answered all the same (empty), so it stops spinning.
      await sendAsUser(sandbox.baseUrl, user, bot.username, '/count');
      const before = (await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, after: poll!.message_id, timeoutMs: 10_000 }))[0]!;
      const dead = await pressButton(sandbox.baseUrl, user, { messageId: before.message_id, data: 'nobody', wait: 10 });
      expect(dead.answer).toMatchObject({ status: 'answered' });
      expect(dead.answer?.text).toBeUndefined();

      // Messages and presses of the chat, back to back: the replies come in the order they were made.
      const order: string[] = [];
      for (let i = 0; i < 6; i++) {
        await sendAsUser(sandbox.baseUrl, user, bot.username, `m${i}`);
        order.push(`message ${i}`);
        await pressButton(sandbox.baseUrl, user, { messageId: before.message_id, data: 'n:/count' });
        order.push('pressed /count');
      }
      const replies = await waitForBotReplies(sandbox.baseUrl, {
        userId: user,
        bot: bot.username,
        after: before.message_id,
        count: order.length,
        timeoutMs: 15_000,
      });
      expect(replies.map((m) => m.text)).toEqual(order);
      expect(await run.stop('SIGTERM')).toBe(0);
    },
  );
});
