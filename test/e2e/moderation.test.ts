// `hearsay run` (a real child process, polling) moderating a sandbox supergroup: a link from a member deleted and
// answered with a warning, the third one muting the member (their next send refused by the service), /rules
// pinned, a join request approved; and the same rules in a group where the bot lacks the rights: the warning
// still goes out (the member's warnings counted in that group alone: member.*), the missing right is logged
// once, the rest counted.
import { beforeAll, describe, expect, it } from 'vitest';
import { changeGroupMembership, createBotViaAssistant, createGroup, groupMessages, sendToGroup, waitForGroupReplies } from '../support/sandbox-harness.js';
import { startPollingRun, type RunProcess } from './run-process.js';
import { sandboxAndRuns } from './sandbox-and-runs.js';

const rules = (help: number) => `
rules:
  - id: help-desk
    text: help
    topics: [${help}]
    reply: "A helper is on the way."
  - id: where
    command: where
    reply: "You wrote in topic {{message.topic}}."
  - id: third-link
    pattern: 'https?://'
    chat_types: [group, supergroup]
    when: { member.warnings: { gte: 2 } }
    delete: true
    restrict: { for: 1h }
    reply: "{{user.first_name}} is muted for an hour."
  - id: link
    pattern: 'https?://'
    chat_types: [group, supergroup]
    delete: true
    set: { member.warnings: { increment: 1 } }
    reply: "{{user.first_name}}, no links here."
  - id: rules
    command: rules
    reply: "Be kind."
    pin: reply
  - id: door
    event: join_request
    approve: true
`;

const ANN = { id: 6301, first_name: 'Ann' };
const BEN = { id: 6302, first_name: 'Ben' };
const EVE = { id: 6303, first_name: 'Eve' };

describe('hearsay run: a group that looks after itself', () => {
  const { sandbox, running } = sandboxAndRuns();
  let run: RunProcess;
  let bot: { token: string; username: string; id: number };
  let groupId: number;
  let weakGroup: number;
  let forum: number;
  let help: number;
  let offTopic: number;

  beforeAll(async () => {
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Kiez', username: 'kiez_moderation_bot' });
    const body = { title: 'Kiez', type: 'supergroup', join_by_request: true, members: [ANN, BEN], bots: [bot.username], admins: [{ bot: bot.username }] };
    const created = await fetch(`${sandbox.baseUrl}/client/groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    groupId = ((await created.json()) as { result: { chat_id: number } }).result.chat_id;
    weakGroup = await createGroup(sandbox.baseUrl, { title: 'No rights', type: 'supergroup', members: [ANN, BEN], bots: [bot.username] });
    const forumBody = { title: 'Kiez forum', forum: true, members: [ANN, BEN], bots: [bot.username], admins: [{ bot: bot.username }] };
    const made = await fetch(`${sandbox.baseUrl}/client/groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(forumBody),
    });
    forum = ((await made.json()) as { result: { chat_id: number } }).result.chat_id;
    const topic = async (name: string) => {
      const response = await fetch(`${sandbox.baseUrl}/bot${bot.token}/createforumtopic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: forum, name }),
      });
      return ((await response.json()) as { result: { message_thread_id: number } }).result.message_thread_id;
    };
    help = await topic('Help');
    offTopic = await topic('Off topic');
    run = await startPollingRun(sandbox.baseUrl, bot.token, rules(help), running);
  });

  it('deletes links with a warning, mutes at the third, and the muted member cannot post', async () => {
    for (const [n, expected] of [
      [1, 'Ben, no links here.'],
      [2, 'Ben, no links here.'],
      [3, 'Ben is muted for an hour.'],
    ] as const) {
      const sent = await sendToGroup(sandbox.baseUrl, BEN, groupId, `look https://spam.example/${n} @${bot.username}`);
      const [reply] = await waitForGroupReplies(sandbox.baseUrl, {
        userId: ANN.id,
        chatId: groupId,
        bot: bot.username,
        after: sent.message_id,
        timeoutMs: 8000,
      });
      expect(reply?.text).toBe(expected);
      const left = await groupMessages(sandbox.baseUrl, ANN.id, groupId, sent.message_id - 1);
      expect(left.some((message) => message.message_id === sent.message_id)).toBe(false);
    }
    await expect(sendToGroup(sandbox.baseUrl, BEN, groupId, 'hello?')).rejects.toThrow(/403 Forbidden: CHAT_SEND_PLAIN_FORBIDDEN/);
  });

  it('pins its /rules reply and approves a join request', async () => {
    const asked = await sendToGroup(sandbox.baseUrl, ANN, groupId, '/rules');
    const [reply] = await waitForGroupReplies(sandbox.baseUrl, {
      userId: ANN.id,
      chatId: groupId,
      bot: bot.username,
      after: asked.message_id,
      timeoutMs: 8000,
    });
    const chat = async () =>
      (await (await fetch(`${sandbox.baseUrl}/bot${bot.token}/getChat?chat_id=${groupId}`)).json()) as { result: { pinned_message?: { message_id: number } } };
    for (let i = 0; i < 50 && (await chat()).result.pinned_message === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await chat()).result.pinned_message?.message_id).toBe(reply!.message_id);
    expect(await changeGroupMembership(sandbox.baseUrl, EVE, groupId, 'join')).toMatchObject({ pending: true });
    const member = async () =>
      (await (await fetch(`${sandbox.baseUrl}/bot${bot.token}/getChatMember?chat_id=${groupId}&user_id=${EVE.id}`)).json()) as { result: { status: string } };
    for (let i = 0; i < 50 && (await member()).result.status !== 'member'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await member()).result.status).toBe('member');
  });

  it('without the rights, the warning still goes out and the missing right is logged once per chat and right; warnings count per group', async () => {
    for (const n of [1, 2]) {
      const sent = await sendToGroup(sandbox.baseUrl, BEN, weakGroup, `see https://spam.example/${n} @${bot.username}`);
      const [reply] = await waitForGroupReplies(sandbox.baseUrl, {
        userId: ANN.id,
        chatId: weakGroup,
        bot: bot.username,
        after: sent.message_id,
        timeoutMs: 8000,
      });
      // Muted in the other group; here Ben has only this group's warnings (member.*, not user.*).
      expect(reply?.text).toBe('Ben, no links here.');
      expect((await groupMessages(sandbox.baseUrl, ANN.id, weakGroup, sent.message_id - 1)).some((m) => m.message_id === sent.message_id)).toBe(true);
    }
    const warnings = run.lines.filter((line) => line.includes('lacks the admin right can_delete_messages') && line.includes(String(weakGroup)));
    expect(warnings).toHaveLength(1);
  });

  it('answers in the topic of the message, with topics: as a condition and {{message.topic}}', async () => {
    const post = async (text: string, topic: number) => {
      const body = { user: BEN, chat: forum, topic, text };
      const response = await fetch(`${sandbox.baseUrl}/client/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return ((await response.json()) as { result: { message_id: number } }).result.message_id;
    };
    const next = async (after: number) => {
      const [reply] = await waitForGroupReplies(sandbox.baseUrl, { userId: ANN.id, chatId: forum, bot: bot.username, after, timeoutMs: 8000 });
      return { text: reply?.text, topic: reply?.message_thread_id };
    };
    expect(await next(await post('/where', offTopic))).toEqual({ text: `You wrote in topic ${offTopic}.`, topic: offTopic });
    expect(await next(await post('help', help))).toEqual({ text: 'A helper is on the way.', topic: help });
    // `help` outside its topic matches no rule: the next answer after it is the one to /where.
    const unanswered = await post('help', offTopic);
    await post('/where', offTopic);
    expect(await next(unanswered)).toEqual({ text: `You wrote in topic ${offTopic}.`, topic: offTopic });
  });
});
