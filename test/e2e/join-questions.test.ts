// `hearsay run` (a real child process, polling the sandbox over HTTP) answering join requests with questions in
// private: the requester, who never wrote to the bot, is asked in their private chat (the service lets an
// administrator bot write there while the request waits), and the request is approved or declined by the answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { changeGroupMembership, createBotViaAssistant, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { startPollingRun } from './run-process.js';
import { sandboxAndRuns } from './sandbox-and-runs.js';

const RULES = `
flows:
  - id: newcomer
    start: { event: join_request }
    steps:
      - id: why
        ask: "Hi {{user.first_name}}! Why do you want to join Kiez Coders?"
      - id: rules
        ask: "Do you accept our rules: no spam, be kind?"
        accept: { choice: { "yes": [yes, ja], "no": [no, nein] } }
    done:
      - when: { flow.rules: "yes" }
        approve: true
        reply: "Welcome in, {{user.first_name}}!"
      - decline: true
        reply: "Sorry, the group is for those who accept its rules."
`;

const ANN = { id: 6401, first_name: 'Ann' };
const EVE = { id: 6402, first_name: 'Eve' };
const MAX = { id: 6403, first_name: 'Max' };

describe('hearsay run: a join request answered by questions in private', () => {
  const { sandbox, running } = sandboxAndRuns();
  let bot: { token: string; username: string; id: number };
  let groupId: number;

  beforeAll(async () => {
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Kiez', username: 'kiez_door_bot' });
    const body = { title: 'Kiez Coders', type: 'supergroup', join_by_request: true, members: [ANN], bots: [bot.username], admins: [{ bot: bot.username }] };
    const created = await fetch(`${sandbox.baseUrl}/client/groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    groupId = ((await created.json()) as { result: { chat_id: number } }).result.chat_id;
    await startPollingRun(sandbox.baseUrl, bot.token, RULES, running);
  });

  const status = async (userId: number) =>
    ((await (await fetch(`${sandbox.baseUrl}/bot${bot.token}/getChatMember?chat_id=${groupId}&user_id=${userId}`)).json()) as { result: { status: string } })
      .result.status;

  /** Asks to join, answers both questions, and returns the bot's three messages. */
  async function askToJoin(user: { id: number; first_name: string }, accept: string): Promise<string[]> {
    expect(await changeGroupMembership(sandbox.baseUrl, user, groupId, 'join')).toMatchObject({ pending: true });
    const [first] = await waitForBotReplies(sandbox.baseUrl, { userId: user.id, bot: bot.username, timeoutMs: 8000 });
    const said = await sendAsUser(sandbox.baseUrl, user, bot.username, 'I write Go and like the neighbourhood');
    const [second] = await waitForBotReplies(sandbox.baseUrl, { userId: user.id, bot: bot.username, after: said.message_id, timeoutMs: 8000 });
    // The choice's buttons are under the question.
    expect(JSON.stringify(second?.reply_markup)).toContain('"text":"yes"');
    const answered = await sendAsUser(sandbox.baseUrl, user, bot.username, accept);
    const [last] = await waitForBotReplies(sandbox.baseUrl, { userId: user.id, bot: bot.username, after: answered.message_id, timeoutMs: 8000 });
    return [first!.text!, second!.text!, last!.text!];
  }

  it('asks a requester who never wrote to the bot, in private, and approves by the answers', async () => {
    expect(await askToJoin(EVE, 'Yes!')).toEqual([
      'Hi Eve! Why do you want to join Kiez Coders?',
      'Do you accept our rules: no spam, be kind?',
      'Welcome in, Eve!',
    ]);
    for (let i = 0; i < 50 && (await status(EVE.id)) !== 'member'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await status(EVE.id)).toBe('member');
  });

  it('declines by the answers: the requester stays out and may ask again', async () => {
    expect((await askToJoin(MAX, 'no'))[2]).toBe('Sorry, the group is for those who accept its rules.');
    expect(await status(MAX.id)).toBe('left');
    // Declined, the request is gone: asking again is a new request (a 400 if the old one still waited).
    expect(await changeGroupMembership(sandbox.baseUrl, MAX, groupId, 'join')).toMatchObject({ pending: true });
  });
});
