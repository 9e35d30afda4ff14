// `forward` and `copy` end to end: the real service in this process against the sandbox, a customer's messages
// forwarded and copied into a staff group as outbox effects (with their entities; the forward naming its author,
// the copy not), a rule silent on purpose (`reply: none`), and a staff group the bot was removed from:
// each effect to it tried once, given up with the service's reason in the log and counted, never retried.
import type { Message } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { changeGroupMembership, createBotViaAssistant, createGroup, groupMessages, sendAsUser } from '../support/sandbox-harness.js';
import { useServiceSandbox } from '../support/service-sandbox.js';

const STAFF = { id: 9101, first_name: 'Sam' };
const CUSTOMER = { id: 9201, first_name: 'Cleo', username: 'cleo' };
const RULES = `rules:
  - id: photo
    pattern: "^photo$"
    reply: "Got it"
  - id: quiet
    keywords: [psst]
    reply: none
    forward: staff
  - id: complaint
    keywords: [complaint]
    reply: "Sorry to hear that!"
    forward: staff
    copy: staff
`;

describe('forward and copy as outbox effects', () => {
  const setup = useServiceSandbox();
  let counter = 0;

  async function setUp() {
    counter += 1;
    const bot = await createBotViaAssistant(setup.sandbox.baseUrl, { userId: 9300 + counter, name: 'Desk', username: `relay_desk_${counter}_bot` });
    const staffChat = await createGroup(setup.sandbox.baseUrl, { title: 'Staff', members: [STAFF], bots: [bot.username], type: 'supergroup' });
    const { service, lines } = await setup.startService(bot.token, { rules: RULES, configYaml: `chats:\n  staff: ${staffChat}\n` });
    return { bot, staffChat, lines, service };
  }

  async function staffSees(chatId: number, count: number): Promise<Message[]> {
    const deadline = Date.now() + 8000;
    for (;;) {
      const messages = await groupMessages(setup.sandbox.baseUrl, STAFF.id, chatId, 0, 1);
      const posted = messages.filter((m) => m.from?.is_bot);
      if (posted.length >= count || Date.now() > deadline) return posted;
    }
  }

  it('forwards and copies the customer messages into the staff group, once each, in order; reply: none answers nothing', async () => {
    const { sandbox } = setup;
    const { bot, staffChat } = await setUp();
    await sendAsUser(sandbox.baseUrl, CUSTOMER, bot.username, 'I have a complaint about *this*');
    await sendAsUser(sandbox.baseUrl, CUSTOMER, bot.username, 'complaint: https://example.com/order/7');
    await sendAsUser(sandbox.baseUrl, CUSTOMER, bot.username, 'psst, a secret');
    const posted = await staffSees(staffChat, 5);
    expect(posted[2]!.entities).toEqual([{ type: 'url', offset: 11, length: 27 }]);
    expect(posted.map((m) => [m.text ?? m.caption, m.photo ? 'photo' : 'text', m.forward_origin ? 'forwarded' : 'copied'])).toEqual([
      ['I have a complaint about *this*', 'text', 'forwarded'],
      ['I have a complaint about *this*', 'text', 'copied'],
      ['complaint: https://example.com/order/7', 'text', 'forwarded'],
      ['complaint: https://example.com/order/7', 'text', 'copied'],
      ['psst, a secret', 'text', 'forwarded'],
    ]);
    expect(posted[0]!.forward_origin).toMatchObject({ type: 'user', sender_user: { id: CUSTOMER.id } });
    const chat = await (await fetch(`${sandbox.baseUrl}/client/messages?user=${CUSTOMER.id}&with=${bot.username}`)).json();
    const answers = (chat as { result: Message[] }).result.filter((m) => m.from?.is_bot).map((m) => m.text);
    expect(answers).toEqual(['Sorry to hear that!', 'Sorry to hear that!']);
  });

  it('gives up at once on a staff group the bot was removed from: logged with the reason, counted, tried once', async () => {
    const { sandbox } = setup;
    const { bot, staffChat, lines, service: running } = await setUp();
    await changeGroupMembership(sandbox.baseUrl, STAFF, staffChat, 'join').catch(() => undefined);
    const removed = await fetch(`${sandbox.baseUrl}/client/groups/${staffChat}/remove-bot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: STAFF, bot: bot.username }),
    });
    expect(removed.ok).toBe(true);
    const attempts: string[] = [];
    const unsubscribe = sandbox.sandbox.onBotApiCall(({ bot: caller, method, params }) => {
      if (caller.toLowerCase() === bot.username.toLowerCase() && Number(params.chat_id) === staffChat) attempts.push(method);
    });
    await sendAsUser(sandbox.baseUrl, CUSTOMER, bot.username, 'another complaint');
    const deadline = Date.now() + 8000;
    while (lines.filter((l) => l.includes('effect given up')).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const givenUp = lines.filter((l) => l.includes('effect given up')).map((l) => JSON.parse(l) as { reason: string; attempts: number; rule?: string });
    expect(givenUp.map((l) => [l.attempts, l.reason])).toEqual([
      [1, expect.stringContaining('bot is not a member of the supergroup chat')],
      [1, expect.stringContaining('bot is not a member of the supergroup chat')],
    ]);
    const metrics = await running.metrics.registry.metrics();
    expect(metrics).toMatch(/^hearsay_effects_total\{kind="message",outcome="failed"\} 2$/m);
    await new Promise((r) => setTimeout(r, 1500));
    expect(attempts).toEqual(['forwardmessage', 'copymessage']);
    unsubscribe();
  });
});
