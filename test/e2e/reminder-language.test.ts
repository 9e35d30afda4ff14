// `hearsay run` (a real child process, polling the sandbox) sends a reminder in the user's language of the moment it
// goes out: set in English, the user chooses German before it is due, and it arrives in German — the outbox's
// performer reads the user's stored choice when it sends, through the service's own wiring.
import { describe, expect, it } from 'vitest';
import { createBotViaAssistant, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { startPollingRun } from './run-process.js';
import { sandboxAndRuns } from './sandbox-and-runs.js';

const RULES = `languages: { default: en, supported: [en, de] }
rules:
  - id: tea
    command: tea
    remind:
      id: tea
      in: 3s
      reply: { en: "Your tea is ready.", de: "Ihr Tee ist fertig." }
    reply: { en: "Timer set.", de: "Timer gestellt." }
  - id: german
    command: deutsch
    set: { user.language: de }
    reply: "Ab jetzt auf Deutsch."
`;

const GUEST = { id: 6201, first_name: 'Guest', language_code: 'en' };

describe('a reminder through hearsay run', () => {
  const { sandbox, running } = sandboxAndRuns();

  it('goes out in the language the user has when it fires', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 6200, name: 'Kettle', username: 'kettle_language_bot' });
    await startPollingRun(sandbox.baseUrl, bot.token, RULES, running);
    const set = await sendAsUser(sandbox.baseUrl, GUEST, bot.username, '/tea');
    expect((await waitForBotReplies(sandbox.baseUrl, { userId: GUEST.id, bot: bot.username, after: set.message_id })).map((m) => m.text)).toEqual([
      'Timer set.',
    ]);
    const switched = await sendAsUser(sandbox.baseUrl, GUEST, bot.username, '/deutsch');
    const after = await waitForBotReplies(sandbox.baseUrl, { userId: GUEST.id, bot: bot.username, after: switched.message_id, count: 2, timeoutMs: 10_000 });
    expect(after.map((m) => m.text)).toEqual(['Ab jetzt auf Deutsch.', 'Ihr Tee ist fertig.']);
  }, 30_000);
});
