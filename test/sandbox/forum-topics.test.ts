// Forum topics in the sandbox, over real HTTP: a supergroup created with `"forum": true` and an administrator
// bot, the topic methods with the service's refusals, forum_topic_* service messages that every bot of the group
// receives, message_thread_id on sends, copies and client posts (a reply to a message goes to its topic),
// closed and deleted topics, and GET /client/topics.
import type { Message } from '@grammyjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotViaAssistant, groupMessages, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';
import { callBot, drainUpdates, type Envelope } from './bot-calls.js';

const ANN = { id: 7301, first_name: 'Ann', username: 'ann' };
const BOB = { id: 7302, first_name: 'Bob' };

describe('forum topics', () => {
  let sandbox: StartedSandbox;
  let desk: { token: string; username: string; id: number };
  let plain: { token: string; username: string; id: number };
  let forum: number;
  let group: number;

  const call = <T = unknown>(token: string, method: string, params: Record<string, unknown> = {}) => callBot<T>(sandbox.baseUrl, token, method, params);
  const client = async <T = unknown>(path: string, body?: unknown): Promise<Envelope<T>> => {
    const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    return (await (await fetch(`${sandbox.baseUrl}${path}`, init)).json()) as Envelope<T>;
  };
  const drain = (token: string) => drainUpdates(sandbox.baseUrl, token);
  const topics = async () => (await client<unknown[]>(`/client/topics?user=${ANN.id}&chat=${forum}`)).result;

  beforeAll(async () => {
    sandbox = await startSandbox();
    desk = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Desk', username: 'forum_desk_bot' });
    plain = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Plain', username: 'forum_plain_bot' });
    const created = await client<{ chat_id: number }>('/client/groups', {
      title: 'Support team',
      forum: true,
      members: [ANN, BOB],
      bots: [desk.username, plain.username],
      admins: [{ bot: desk.username }],
    });
    forum = created.result.chat_id;
    group = (await client<{ chat_id: number }>('/client/groups', { title: 'Plain', type: 'supergroup', members: [ANN], bots: [desk.username] })).result.chat_id;
    await drain(desk.token);
    await drain(plain.token);
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('creates a forum supergroup whose chat says is_forum, and refuses topics anywhere else or without the right', async () => {
    expect(String(forum)).toMatch(/^-100\d+$/);
    expect((await call<{ is_forum?: boolean }>(desk.token, 'getchat', { chat_id: forum })).result.is_forum).toBe(true);
    expect((await call<{ is_forum?: boolean }>(desk.token, 'getchat', { chat_id: group })).result.is_forum).toBeUndefined();
    expect((await call(desk.token, 'createforumtopic', { chat_id: group, name: 'x' })).description).toBe('Bad Request: the chat is not a forum');
    expect((await call(plain.token, 'createforumtopic', { chat_id: forum, name: 'x' })).description).toBe('Bad Request: not enough rights to create a topic');
    expect((await call(desk.token, 'createforumtopic', { chat_id: forum, name: '   ' })).description).toBe('Bad Request: title must be non-empty');
    const basic = await client('/client/groups', { title: 'No', type: 'group', forum: true, members: [ANN] });
    expect(basic.description).toContain('only a supergroup can have topics');
  });

  it('opens a topic: forum_topic_created for every bot, messages in it carry message_thread_id, a send without one lands in General', async () => {
    const created = await call<{ message_thread_id: number; name: string; icon_color: number }>(desk.token, 'createforumtopic', {
      chat_id: forum,
      name: 'Cleo (@cleo) #9201',
    });
    expect(created.ok).toBe(true);
    const thread = created.result.message_thread_id;
    expect(created.result).toEqual({ message_thread_id: thread, name: 'Cleo (@cleo) #9201', icon_color: 0x6fb9f0 });
    for (const bot of [desk, plain]) {
      const [update] = await drain(bot.token);
      expect(update!.message).toMatchObject({
        message_id: thread,
        message_thread_id: thread,
        is_topic_message: true,
        chat: { id: forum, type: 'supergroup', is_forum: true },
        forum_topic_created: { name: 'Cleo (@cleo) #9201', icon_color: 0x6fb9f0 },
      });
    }
    const sent = await call<Message>(desk.token, 'sendmessage', { chat_id: forum, message_thread_id: thread, text: 'Header' });
    expect(sent.result).toMatchObject({ message_thread_id: thread, is_topic_message: true, reply_to_message: { message_id: thread } });
    const general = await call<Message>(desk.token, 'sendmessage', { chat_id: forum, text: 'In General' });
    expect(general.result.message_thread_id).toBeUndefined();
    expect((await call(desk.token, 'sendmessage', { chat_id: forum, message_thread_id: 999_999, text: 'x' })).description).toBe(
      'Bad Request: message thread not found',
    );
    // A copy of a customer's message into the topic.
    const customer = await sendAsUser(sandbox.baseUrl, { id: 9201, first_name: 'Cleo' }, desk.username, 'hello <b>there</b>');
    const copy = await call<{ message_id: number }>(desk.token, 'copymessage', {
      chat_id: forum,
      from_chat_id: customer.chat_id,
      message_id: customer.message_id,
      message_thread_id: thread,
    });
    const inGroup = await groupMessages(sandbox.baseUrl, ANN.id, forum);
    expect(inGroup.find((m) => m.message_id === copy.result.message_id)).toMatchObject({ text: 'hello <b>there</b>', message_thread_id: thread });
    expect(await topics()).toEqual([{ message_thread_id: thread, name: 'Cleo (@cleo) #9201', closed: false }]);
  });

  it('posts from the client API into a topic ("topic", or a reply to a message there); the bot that opened it sees them', async () => {
    const thread = (await call<{ message_thread_id: number }>(desk.token, 'createforumtopic', { chat_id: forum, name: 'Dan' })).result.message_thread_id;
    await drain(desk.token);
    await drain(plain.token);
    const posted = await client<{ message_id: number }>('/client/send', { user: BOB, chat: forum, topic: thread, text: 'We are on it' });
    const replied = await client<{ message_id: number }>('/client/send', { user: ANN, chat: forum, reply_to: posted.result.message_id, text: 'Thanks Bob' });
    const messages = await groupMessages(sandbox.baseUrl, ANN.id, forum);
    const post = messages.find((m) => m.message_id === posted.result.message_id)!;
    expect(post).toMatchObject({ message_thread_id: thread, is_topic_message: true, reply_to_message: { message_id: thread } });
    expect(messages.find((m) => m.message_id === replied.result.message_id)).toMatchObject({ message_thread_id: thread, is_topic_message: true });
    const seen = (await drain(desk.token)).map((u) => u.message?.text);
    expect(seen).toEqual(['We are on it', 'Thanks Bob']);
    expect((await client('/client/send', { user: BOB, chat: forum, topic: 424_242, text: 'x' })).description).toBe('Bad Request: message thread not found');
    expect((await client('/client/send', { user: ANN, chat: group, topic: thread, text: 'x' })).description).toContain('has no topics');
  });

  it('edits, closes, reopens and deletes a topic, with their service messages and refusals', async () => {
    const thread = (await call<{ message_thread_id: number }>(desk.token, 'createforumtopic', { chat_id: forum, name: 'Eve' })).result.message_thread_id;
    await drain(desk.token);
    expect((await call(desk.token, 'editforumtopic', { chat_id: forum, message_thread_id: thread, name: 'Eve' })).description).toBe(
      'Bad Request: TOPIC_NOT_MODIFIED',
    );
    expect((await call(desk.token, 'editforumtopic', { chat_id: forum, message_thread_id: thread, name: 'Eve (done)' })).result).toBe(true);
    expect((await call(desk.token, 'closeforumtopic', { chat_id: forum, message_thread_id: thread })).result).toBe(true);
    expect((await call(desk.token, 'closeforumtopic', { chat_id: forum, message_thread_id: thread })).description).toBe('Bad Request: TOPIC_NOT_MODIFIED');
    expect((await call(plain.token, 'reopenforumtopic', { chat_id: forum, message_thread_id: thread })).description).toBe(
      'Bad Request: not enough rights to close or reopen the topic',
    );
    expect((await client('/client/send', { user: BOB, chat: forum, topic: thread, text: 'too late' })).description).toBe('Bad Request: TOPIC_CLOSED');
    expect((await call(desk.token, 'sendmessage', { chat_id: forum, message_thread_id: thread, text: 'admins still can' })).ok).toBe(true);
    expect((await topics()).find((t) => (t as { message_thread_id: number }).message_thread_id === thread)).toEqual({
      message_thread_id: thread,
      name: 'Eve (done)',
      closed: true,
    });
    expect((await call(desk.token, 'reopenforumtopic', { chat_id: forum, message_thread_id: thread })).result).toBe(true);
    const service = (await drain(desk.token)).map((u) => u.message!).filter((m) => m.message_thread_id === thread);
    expect(service.map((m) => Object.keys(m).find((k) => k.startsWith('forum_topic_')))).toEqual([
      'forum_topic_edited',
      'forum_topic_closed',
      'forum_topic_reopened',
    ]);
    expect(service[0]).toMatchObject({ forum_topic_edited: { name: 'Eve (done)' } });
    expect((await call(desk.token, 'deleteforumtopic', { chat_id: forum, message_thread_id: thread })).result).toBe(true);
    expect((await groupMessages(sandbox.baseUrl, ANN.id, forum)).some((m) => m.message_thread_id === thread)).toBe(false);
    expect((await topics()).some((t) => (t as { message_thread_id: number }).message_thread_id === thread)).toBe(false);
    expect((await call(desk.token, 'sendmessage', { chat_id: forum, message_thread_id: thread, text: 'x' })).description).toBe(
      'Bad Request: message thread not found',
    );
  });
});
