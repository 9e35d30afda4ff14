// Hand-off to a person end to end: the real service in this process against the sandbox. A customer who asks
// for a human gets a topic of their own in the staff forum (named after them, with a header and the chat so
// far); their messages (text and photos) are copied there and the bot says nothing; staff answers in the topic
// reach the customer; an end word or the idle time hands them back (topic closed, handoff_end sent). Without
// topics, copies name the customer and a staff reply to one reaches them.
import type { Message } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { png } from '../support/images.js';
import { createBotViaAssistant, groupMessages, sendAsUser } from '../support/sandbox-harness.js';
import { useServiceSandbox } from '../support/service-sandbox.js';

const SAM = { id: 9401, first_name: 'Sam' };
const RULES = `rules:
  - id: human
    keywords: [human, agent]
    handoff: true
    reply: "I've asked a colleague; they'll answer right here."
  - id: cancel
    command: cancel
    during_handoff: true
    handoff: false
    reply: "Left the queue."
  - id: status
    command: status
    when: { handoff: true }
    during_handoff: true
    reply: "A colleague is on it."
  - id: help
    fallback: true
    reply: "I can help with orders. Say human for a person."
handoff_end:
  reply: "You're back with the bot. Anything else? /help"
`;

interface Setup {
  bot: { token: string; username: string; id: number };
  staff: number;
  lines: string[];
}

describe('hand-off to a person', () => {
  const setup = useServiceSandbox();
  let counter = 0;

  const client = async <T>(path: string, body?: unknown): Promise<T> => {
    const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const envelope = (await (await fetch(`${setup.sandbox.baseUrl}${path}`, init)).json()) as { ok: boolean; result: T; description?: string };
    if (!envelope.ok) throw new Error(`${path}: ${envelope.description}`);
    return envelope.result;
  };

  async function setUp(forum: boolean, handoff = 'handoff: { chat: staff }', rulesYaml = RULES): Promise<Setup> {
    counter += 1;
    const bot = await createBotViaAssistant(setup.sandbox.baseUrl, { userId: 9500 + counter, name: 'Desk', username: `handoff_desk_${counter}_bot` });
    const group = { title: 'Support team', members: [SAM], bots: [bot.username], admins: [{ bot: bot.username }] };
    const staff = (await client<{ chat_id: number }>('/client/groups', forum ? { ...group, forum: true } : { ...group, type: 'supergroup' })).chat_id;
    const { lines } = await setup.startService(bot.token, { rules: rulesYaml, configYaml: `chats:\n  staff: ${staff}\n${handoff}\n` });
    return { bot, staff, lines };
  }

  /** Waits until `pick` finds what it wants among the messages `read` gives. */
  async function waitFor<T, R = Message>(read: () => Promise<R[]>, pick: (messages: R[]) => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const messages = await read();
      const found = pick(messages);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`${what} did not happen; messages: ${JSON.stringify(messages)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const customerChat = (customer: number, bot: string) => async () =>
    client<Message[]>(`/client/messages?user=${customer}&with=${bot}`).then((all) => all.filter((m) => m.from?.is_bot));
  const staffChat = (staff: number) => async () => groupMessages(setup.sandbox.baseUrl, SAM.id, staff);

  it('opens the customer topic with a header and the chat so far, relays both ways (text and photos), and ends on "done"', async () => {
    const { sandbox } = setup;
    const { bot, staff } = await setUp(true);
    const cleo = { id: 9601, first_name: 'Cleo', username: 'cleo', language_code: 'en' };
    const fromBot = customerChat(cleo.id, bot.username);
    await sendAsUser(sandbox.baseUrl, cleo, bot.username, 'where is my order?');
    await waitFor(fromBot, (m) => (m.length === 1 ? m : undefined), 'the fallback answer');
    await sendAsUser(sandbox.baseUrl, cleo, bot.username, 'I want a human');
    await waitFor(fromBot, (m) => m.find((x) => x.text?.startsWith("I've asked a colleague")), 'the hand-off reply');
    const [topic] = await waitFor(
      () => client<Array<{ message_thread_id: number; name: string; closed: boolean }>>(`/client/topics?user=${SAM.id}&chat=${staff}`),
      (topics: Array<{ message_thread_id: number; name: string; closed: boolean }>) => (topics.length > 0 ? topics : undefined),
      'the topic',
    );
    expect(topic).toMatchObject({ name: 'Cleo (@cleo) #9601', closed: false });
    const thread = topic!.message_thread_id;
    const inTopic = async () => (await staffChat(staff)()).filter((m) => m.message_thread_id === thread && m.from?.is_bot && !m.forum_topic_created);
    const header = await waitFor(inTopic, (m) => (m.length >= 5 ? m : undefined), 'the header and the history');
    expect(header[0]!.text).toContain('Hand-off: Cleo (@cleo, id 9601), language en');
    expect(header[0]!.text).toContain('Rule: human');
    expect(header.slice(1).map((m) => m.text)).toEqual([
      'where is my order?',
      'I can help with orders. Say human for a person.',
      'I want a human',
      "I've asked a colleague; they'll answer right here.",
    ]);
    expect(header[1]!.forward_origin).toMatchObject({ type: 'user', sender_user: { id: cleo.id } });

    // The customer talks: copied into the topic, the bot stays silent.
    await sendAsUser(sandbox.baseUrl, cleo, bot.username, 'hello? are you there?');
    await client('/client/send', { user: cleo, to: bot.username, photo: { data: png(3, 2).toString('base64') }, caption: 'the damage' });
    await waitFor(inTopic, (m) => (m.some((x) => x.caption === 'the damage' && x.photo) ? m : undefined), 'the photo in the topic');
    expect((await inTopic()).some((m) => m.text === 'hello? are you there?' && !m.forward_origin)).toBe(true);
    // Staff answer in the topic: text and a photo reach the customer.
    await client('/client/send', { user: SAM, chat: staff, topic: thread, text: 'Hi Cleo, Sam here. Checking now.' });
    await client('/client/send', { user: SAM, chat: staff, topic: thread, photo: { data: png(2, 2).toString('base64') }, caption: 'your parcel' });
    await waitFor(fromBot, (m) => m.find((x) => x.caption === 'your parcel' && x.photo), 'the staff photo at the customer');
    const answers = (await fromBot()).map((m) => m.text ?? m.caption);
    expect(answers.slice(2)).toEqual(['Hi Cleo, Sam here. Checking now.', 'your parcel']);
    // A during_handoff rule still answers.
    await sendAsUser(sandbox.baseUrl, cleo, bot.username, '/status');
    await waitFor(fromBot, (m) => m.find((x) => x.text === 'A colleague is on it.'), 'the during_handoff answer');

    // "done" hands back: the topic is closed, the customer told, the bot answers again.
    await client('/client/send', { user: SAM, chat: staff, topic: thread, text: 'Done' });
    await waitFor(fromBot, (m) => m.find((x) => x.text === "You're back with the bot. Anything else? /help"), 'handoff_end');
    const closed = await waitFor(
      () => client<Array<{ closed: boolean }>>(`/client/topics?user=${SAM.id}&chat=${staff}`),
      (topics: Array<{ closed: boolean }>) => (topics[0]?.closed ? topics : undefined),
      'the topic closed',
    );
    expect(closed).toHaveLength(1);
    expect((await inTopic()).some((m) => m.text?.startsWith('Back with the bot (ended by Sam)'))).toBe(true);
    await sendAsUser(sandbox.baseUrl, cleo, bot.username, 'one more thing');
    await waitFor(fromBot, (m) => (m.at(-1)?.text === 'I can help with orders. Say human for a person.' ? m : undefined), 'the bot answering again');
  });

  it('hands back by itself after the idle time, and a customer may leave with a during_handoff rule', async () => {
    const { sandbox } = setup;
    const { bot, staff } = await setUp(true, 'handoff: { chat: staff, idle: 2s }');
    const dan = { id: 9602, first_name: 'Dan' };
    const fromBot = customerChat(dan.id, bot.username);
    await sendAsUser(sandbox.baseUrl, dan, bot.username, 'agent please');
    await waitFor(fromBot, (m) => m.find((x) => x.text === "You're back with the bot. Anything else? /help"), 'the idle hand-back');
    const topics = await waitFor(
      () => client<Array<{ name: string; closed: boolean }>>(`/client/topics?user=${SAM.id}&chat=${staff}`),
      (list: Array<{ name: string; closed: boolean }>) => (list[0]?.closed ? list : undefined),
      'the topic closed after the idle time',
    );
    expect(topics).toMatchObject([{ name: 'Dan #9602', closed: true }]);
    await sendAsUser(sandbox.baseUrl, dan, bot.username, 'human again');
    await waitFor(fromBot, (m) => (m.filter((x) => x.text?.startsWith("I've asked")).length === 2 ? m : undefined), 'a second hand-off');
    await sendAsUser(sandbox.baseUrl, dan, bot.username, '/cancel');
    await waitFor(fromBot, (m) => m.find((x) => x.text === 'Left the queue.'), 'leaving the queue');
    // The same topic was reopened for the second hand-off, and is closed again.
    const after = await waitFor(
      () => client<Array<{ closed: boolean }>>(`/client/topics?user=${SAM.id}&chat=${staff}`),
      (list: Array<{ closed: boolean }>) => (list.length === 1 && list[0]!.closed ? list : undefined),
      'one topic, closed again',
    );
    expect(after).toHaveLength(1);
  });

  it('without topics, copies name the customer and a staff reply to one reaches them', async () => {
    const { sandbox } = setup;
    const { bot, staff } = await setUp(false);
    const eve = { id: 9603, first_name: 'Eve', username: 'eve' };
    const fromBot = customerChat(eve.id, bot.username);
    await sendAsUser(sandbox.baseUrl, eve, bot.username, 'human');
    await sendAsUser(sandbox.baseUrl, eve, bot.username, 'my *order* 42 is late');
    const fromDesk = async () => (await staffChat(staff)()).filter((m) => m.from?.is_bot);
    const copy = await waitFor(fromDesk, (m) => m.find((x) => !x.forward_origin && x.text?.endsWith('my *order* 42 is late')), 'the named copy');
    expect(copy.text).toBe('Eve (@eve, id 9603):\nmy *order* 42 is late');
    expect((await fromDesk())[0]!.text).toContain('Hand-off: Eve (@eve, id 9603)');
    await client('/client/send', { user: SAM, chat: staff, reply_to: copy.message_id, text: 'On its way, Eve.' });
    await waitFor(fromBot, (m) => m.find((x) => x.text === 'On its way, Eve.'), 'the staff reply at the customer');
    await client('/client/send', { user: SAM, chat: staff, reply_to: copy.message_id, text: '/done' });
    await waitFor(fromBot, (m) => m.find((x) => x.text === "You're back with the bot. Anything else? /help"), 'handoff_end');
    await waitFor(fromDesk, (m) => m.find((x) => x.text === 'Customer id 9603 is back with the bot (ended by Sam).'), 'the line in the staff group');
  });

  it('a customer who blocks the bot: one line in the topic, the hand-off ends; a staff group without the bot: the customer is handed back and told once', async () => {
    const { sandbox } = setup;
    const { bot, staff, lines } = await setUp(true);
    const fay = { id: 9604, first_name: 'Fay' };
    await sendAsUser(sandbox.baseUrl, fay, bot.username, 'human');
    const [topic] = await waitFor(
      () => client<Array<{ message_thread_id: number }>>(`/client/topics?user=${SAM.id}&chat=${staff}`),
      (list: Array<{ message_thread_id: number }>) => (list.length > 0 ? list : undefined),
      'the topic',
    );
    const thread = topic!.message_thread_id;
    await client('/client/block', { user: fay.id, bot: bot.username, blocked: true });
    // The block itself (my_chat_member) ends the hand-off: staff learn it before they write.
    const inTopic = async () => (await staffChat(staff)()).filter((m) => m.message_thread_id === thread && m.from?.is_bot);
    await waitFor(inTopic, (m) => m.find((x) => x.text === 'Back with the bot (the customer blocked the bot; nothing more reaches them).'), 'the blocked line');
    await waitFor(
      () => client<Array<{ closed: boolean }>>(`/client/topics?user=${SAM.id}&chat=${staff}`),
      (list: Array<{ closed: boolean }>) => (list[0]?.closed ? list : undefined),
      'the topic closed',
    );
    await client('/client/send', { user: SAM, chat: staff, topic: thread, text: 'Hello Fay?' });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await inTopic()).filter((m) => m.text?.includes('blocked')).length).toBe(1);

    // The bot removed from the staff group: the next customer's hand-off cannot open; they are told once.
    await client(`/client/groups/${staff}/remove-bot`, { user: SAM, bot: bot.username });
    const gus = { id: 9605, first_name: 'Gus' };
    const fromBot = customerChat(gus.id, bot.username);
    await sendAsUser(sandbox.baseUrl, gus, bot.username, 'agent');
    await waitFor(fromBot, (m) => m.find((x) => x.text === "You're back with the bot. Anything else? /help"), 'the customer told');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await fromBot()).map((m) => m.text)).toEqual([
      "I've asked a colleague; they'll answer right here.",
      "You're back with the bot. Anything else? /help",
    ]);
    expect(lines.some((l) => l.includes('effect given up') && l.includes('not a member'))).toBe(true);
  });

  it('{{handoff.topic_link}} in a send links to the customer topic, on the first hand-off too (the link waits for the topic)', async () => {
    const { sandbox } = setup;
    const rules = RULES.replace(
      'handoff: true\n',
      'handoff: true\n    send: [{ to: staff, text: "New hand-off: {{handoff.topic_link}}" }, { to: staff, parse_mode: MarkdownV2, text: "[open]({{handoff.topic_link}})" }]\n',
    );
    const { bot, staff } = await setUp(true, 'handoff: { chat: staff }', rules);
    const hal = { id: 9606, first_name: 'Hal' };
    const fromBot = customerChat(hal.id, bot.username);
    const general = async () => (await staffChat(staff)()).filter((m) => m.from?.is_bot && m.message_thread_id === undefined);
    await sendAsUser(sandbox.baseUrl, hal, bot.username, 'human');
    const [topic] = await waitFor(
      () => client<Array<{ message_thread_id: number }>>(`/client/topics?user=${SAM.id}&chat=${staff}`),
      (list: Array<{ message_thread_id: number }>) => (list.length > 0 ? list : undefined),
      'the topic',
    );
    const link = `https://t.me/c/${String(staff).slice('-100'.length)}/${topic!.message_thread_id}`;
    const sent = await waitFor(general, (m) => (m.length >= 2 ? m : undefined), 'the notifications');
    expect(sent[0]!.text).toBe(`New hand-off: ${link}`);
    expect(sent[1]!.text).toBe('open');
    expect(sent[1]!.entities).toEqual([{ type: 'text_link', offset: 0, length: 4, url: link }]);
    // Handed back and handed off again: the same topic reopened, the same link.
    await client('/client/send', { user: SAM, chat: staff, topic: topic!.message_thread_id, text: 'done' });
    await waitFor(fromBot, (m) => m.find((x) => x.text?.startsWith("You're back")), 'handoff_end');
    await sendAsUser(sandbox.baseUrl, hal, bot.username, 'human please');
    const again = await waitFor(general, (m) => (m.length >= 4 ? m : undefined), 'the second notifications');
    expect(again[2]!.text).toBe(`New hand-off: ${link}`);
  });
});
