// Groups in the sandbox: creation, privacy-mode delivery to bots, sendmessage into a group, and the 403
// for a group the bot is not in, all over real HTTP.
import type { Update } from '@grammyjs/types';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGroup, createBotViaAssistant, groupMessages, sendToGroup, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const ANN = { id: 5001, first_name: 'Ann', username: 'ann' };
const BOB = { id: 5002, first_name: 'Bob' };

describe('groups in the sandbox', () => {
  let sandbox: StartedSandbox;
  let helper: { token: string; username: string; id: number };
  let other: { token: string; username: string; id: number };
  let groupId: number;

  const call = async (token: string, method: string, params: Record<string, unknown> = {}) => {
    const response = await fetch(`${sandbox.baseUrl}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads whatever the method returned
    return { status: response.status, body: (await response.json()) as { ok: boolean; result?: any; description?: string; error_code?: number } };
  };
  /** Every pending update of the bot, then confirmed so the next test starts empty. */
  const drain = async (token: string): Promise<Update[]> => {
    const { body } = await call(token, 'getupdates');
    const updates = body.result as Update[];
    if (updates.length > 0) await call(token, 'getupdates', { offset: updates.at(-1)!.update_id + 1 });
    return updates;
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    helper = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Helper', username: 'group_helper_bot' });
    other = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Other', username: 'other_group_bot' });
    groupId = await createGroup(sandbox.baseUrl, { title: 'Team', members: [ANN, BOB], bots: [helper.username, other.username] });
  });
  afterAll(async () => {
    await sandbox.close();
  });
  beforeEach(async () => {
    await drain(helper.token);
    await drain(other.token);
  });

  it('creates groups with negative ids (supergroups -100…) and rejects bad requests', async () => {
    expect(groupId).toBeLessThan(0);
    expect(String(groupId)).not.toMatch(/^-100/);
    const supergroup = await createGroup(sandbox.baseUrl, { title: 'Big', members: [ANN], type: 'supergroup' });
    expect(String(supergroup)).toMatch(/^-100\d+$/);
    const post = (body: unknown) =>
      fetch(`${sandbox.baseUrl}/client/groups`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const noTitle = await post({ members: [ANN] });
    expect(noTitle.status).toBe(400);
    expect(((await noTitle.json()) as { description: string }).description).toContain('title must be a non-empty string');
    const unknownBot = await post({ title: 'X', members: [ANN], bots: ['nobody_here_bot'] });
    expect(((await unknownBot.json()) as { description: string }).description).toContain('@nobody_here_bot');
  });

  it('only members may post in or read the group', async () => {
    const outsider = { id: 5999, first_name: 'Eve' };
    await expect(sendToGroup(sandbox.baseUrl, outsider, groupId, 'hi')).rejects.toThrow(/user 5999 is not a member/);
    await expect(groupMessages(sandbox.baseUrl, outsider.id, groupId)).rejects.toThrow(/not a member/);
  });

  it('delivers commands (plain and addressed to the bot) but not commands for another bot', async () => {
    await sendToGroup(sandbox.baseUrl, ANN, groupId, '/help');
    await sendToGroup(sandbox.baseUrl, ANN, groupId, '/help@Group_Helper_Bot now');
    await sendToGroup(sandbox.baseUrl, BOB, groupId, `/start@${other.username}`);
    const helperUpdates = await drain(helper.token);
    expect(helperUpdates.map((update) => update.message?.text)).toEqual(['/help', '/help@Group_Helper_Bot now']);
    const message = helperUpdates[1]!.message!;
    expect(message.chat).toEqual({ id: groupId, type: 'group', title: 'Team' });
    expect(message.from).toMatchObject({ id: ANN.id, is_bot: false, first_name: 'Ann', username: 'ann' });
    expect(message.entities).toEqual([{ type: 'bot_command', offset: 0, length: '/help@Group_Helper_Bot'.length }]);
    expect((await drain(other.token)).map((update) => update.message?.text)).toEqual(['/help', `/start@${other.username}`]);
  });

  it('does not deliver plain text, but delivers a mention of the bot and a reply to its message', async () => {
    await sendToGroup(sandbox.baseUrl, ANN, groupId, 'just chatting, nothing for bots');
    await sendToGroup(sandbox.baseUrl, ANN, groupId, `what do you think, @${helper.username}?`);
    expect((await drain(other.token)).map((update) => update.message?.text)).toEqual([]);
    const mentioned = await drain(helper.token);
    expect(mentioned.map((update) => update.message?.text)).toEqual([`what do you think, @${helper.username}?`]);
    expect(mentioned[0]!.message!.entities).toEqual([{ type: 'mention', offset: 19, length: helper.username.length + 1 }]);

    const sent = await call(helper.token, 'sendmessage', { chat_id: groupId, text: 'I think so' });
    await sendToGroup(sandbox.baseUrl, BOB, groupId, 'are you sure?', sent.body.result.message_id);
    const replies = await drain(helper.token);
    expect(replies.map((update) => update.message?.text)).toEqual(['are you sure?']);
    expect(replies[0]!.message!.reply_to_message?.text).toBe('I think so');
    expect(await drain(other.token)).toEqual([]);
  });

  it('sendmessage posts into a group the bot is in; members read it', async () => {
    const before = await groupMessages(sandbox.baseUrl, BOB.id, groupId);
    const sent = await call(helper.token, 'sendMessage', { chat_id: String(groupId), text: 'hello team' });
    expect(sent.status).toBe(200);
    expect(sent.body.result).toMatchObject({
      chat: { id: groupId, type: 'group', title: 'Team' },
      from: { id: helper.id, is_bot: true, username: helper.username },
      text: 'hello team',
    });
    const after = await groupMessages(sandbox.baseUrl, BOB.id, groupId, before.at(-1)?.message_id ?? 0);
    expect(after.map((message) => message.text)).toEqual(['hello team']);
  });

  it('a long poll on a group wakes up when a message is posted', async () => {
    const last = (await groupMessages(sandbox.baseUrl, ANN.id, groupId)).at(-1)?.message_id ?? 0;
    const poll = groupMessages(sandbox.baseUrl, ANN.id, groupId, last, 10);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await sendToGroup(sandbox.baseUrl, BOB, groupId, 'wake up');
    expect((await poll).map((message) => message.text)).toEqual(['wake up']);
  });

  it('sendmessage to a group the bot is not in is 403; to an unknown group 400 chat not found', async () => {
    const elsewhere = await createGroup(sandbox.baseUrl, { title: 'Private club', members: [BOB], bots: [other.username] });
    const denied = await call(helper.token, 'sendmessage', { chat_id: elsewhere, text: 'let me in' });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ ok: false, error_code: 403, description: 'Forbidden: bot is not a member of the group chat' });
    const supergroup = await createGroup(sandbox.baseUrl, { title: 'Big club', members: [BOB], type: 'supergroup' });
    const deniedSuper = await call(helper.token, 'sendmessage', { chat_id: supergroup, text: 'let me in' });
    expect(deniedSuper.body.description).toBe('Forbidden: bot is not a member of the supergroup chat');
    const unknown = await call(helper.token, 'sendmessage', { chat_id: -4242, text: 'anyone?' });
    expect(unknown.body).toEqual({ ok: false, error_code: 400, description: 'Bad Request: chat not found' });
  });

  it('with rate limits on, a bot may post 20 messages per minute to one group, then gets 429', async () => {
    const limited = await startSandbox({ rateLimits: { perChatPerSecond: 100, overallPerSecond: 100 } });
    try {
      const bot = await createBotViaAssistant(limited.baseUrl, { userId: ANN.id, name: 'Chatty', username: 'chatty_group_bot' });
      const chat = await createGroup(limited.baseUrl, { title: 'Limited', members: [ANN], bots: [bot.username] });
      const send = (text: string) =>
        fetch(`${limited.baseUrl}/bot${bot.token}/sendmessage`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ chat_id: chat, text }),
        });
      for (let i = 1; i <= 20; i++) expect((await send(`message ${i}`)).status).toBe(200);
      const refused = await send('one too many');
      expect(refused.status).toBe(429);
      const body = (await refused.json()) as { description: string; parameters: { retry_after: number } };
      expect(body.parameters.retry_after).toBeGreaterThan(1);
      expect(body.description).toBe(`Too Many Requests: retry after ${body.parameters.retry_after}`);
    } finally {
      await limited.close();
    }
  });
});
