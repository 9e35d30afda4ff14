// Joining and leaving a group in the sandbox: the service message every bot of the group receives (privacy
// mode or not), the chat_member update only for an administrator bot that asked for it, membership checks,
// over real HTTP.
import type { Update } from '@grammyjs/types';
import { Bot } from 'grammy';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  changeGroupMembership,
  createBotViaAssistant,
  createGroup,
  groupMessages,
  sendToGroup,
  startSandbox,
  type StartedSandbox,
} from '../support/sandbox-harness.js';

const ANN = { id: 6001, first_name: 'Ann', username: 'ann' };
const CARL = { id: 6003, first_name: 'Carl', language_code: 'de-AT' };

describe('joining and leaving groups', () => {
  let sandbox: StartedSandbox;
  let plain: { token: string; username: string };
  let watcher: { token: string; username: string };
  let outside: { token: string; username: string };
  let groupId: number;

  const call = async (token: string, method: string, params: Record<string, unknown> = {}) => {
    const response = await fetch(`${sandbox.baseUrl}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    return (await response.json()) as { ok: boolean; result: Update[] };
  };
  const drain = async (token: string, allowed?: string[]): Promise<Update[]> => {
    const { result } = await call(token, 'getupdates', allowed ? { allowed_updates: allowed } : {});
    if (result.length > 0) await call(token, 'getupdates', { offset: result.at(-1)!.update_id + 1 });
    return result;
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    plain = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Plain', username: 'plain_member_bot' });
    watcher = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Watcher', username: 'watcher_member_bot' });
    outside = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Outside', username: 'outside_member_bot' });
    // The watcher is an administrator (as the real service requires for chat_member) and asks for chat_member
    // updates (as a real bot must do explicitly); the others keep the default.
    groupId = await createGroup(sandbox.baseUrl, {
      title: 'Club',
      members: [ANN],
      bots: [plain.username, watcher.username],
      admins: [{ bot: watcher.username }],
    });
    await drain(watcher.token, ['message', 'chat_member']);
  });
  afterAll(async () => {
    await sandbox.close();
  });
  beforeEach(async () => {
    for (const bot of [plain, watcher, outside]) await drain(bot.token);
  });

  it('a join posts new_chat_members in the group and every bot of the group receives it', async () => {
    const joined = await changeGroupMembership(sandbox.baseUrl, CARL, groupId, 'join');
    expect(joined.chat_id).toBe(groupId);
    const [service] = await groupMessages(sandbox.baseUrl, CARL.id, groupId, joined.message_id - 1);
    const carl = { id: CARL.id, is_bot: false, first_name: 'Carl', language_code: 'de-AT' };
    expect(service).toMatchObject({ message_id: joined.message_id, from: carl, chat: { id: groupId, type: 'group', title: 'Club' }, new_chat_members: [carl] });
    expect(service).not.toHaveProperty('text');

    const plainUpdates = await drain(plain.token);
    expect(plainUpdates).toHaveLength(1);
    expect(plainUpdates[0]!.message).toMatchObject({ new_chat_members: [carl], chat: { id: groupId } });
    const watcherUpdates = await drain(watcher.token);
    expect(watcherUpdates.map((update) => Object.keys(update).filter((key) => key !== 'update_id')[0])).toEqual(['message', 'chat_member']);
    expect(watcherUpdates[1]!.chat_member).toMatchObject({
      chat: { id: groupId, type: 'group', title: 'Club' },
      from: carl,
      old_chat_member: { status: 'left', user: carl },
      new_chat_member: { status: 'member', user: carl },
    });
    expect(await drain(outside.token)).toEqual([]);

    // Now a member: Carl posts and reads like the others.
    await sendToGroup(sandbox.baseUrl, CARL, groupId, `hello @${plain.username}`);
    expect((await drain(plain.token)).map((update) => update.message?.text)).toEqual([`hello @${plain.username}`]);
  });

  it('a leave posts left_chat_member, ends the membership and sends chat_member member → left', async () => {
    const left = await changeGroupMembership(sandbox.baseUrl, CARL, groupId, 'leave');
    const annSees = await groupMessages(sandbox.baseUrl, ANN.id, groupId, left.message_id - 1);
    expect(annSees[0]).toMatchObject({ from: { id: CARL.id }, left_chat_member: { id: CARL.id, first_name: 'Carl' } });
    expect((await drain(plain.token))[0]!.message).toMatchObject({ left_chat_member: { id: CARL.id } });
    const watcherUpdates = await drain(watcher.token);
    expect(watcherUpdates[1]!.chat_member).toMatchObject({ old_chat_member: { status: 'member' }, new_chat_member: { status: 'left' } });
    await expect(sendToGroup(sandbox.baseUrl, CARL, groupId, 'still here?')).rejects.toThrow(/user 6003 is not a member/);
    const member = await call(plain.token, 'getchatmember', { chat_id: groupId, user_id: CARL.id });
    expect(member.result).toMatchObject({ status: 'left' });
  });

  it('a bot that asks for chat_member but is no administrator gets none, as on the real service', async () => {
    await drain(plain.token, ['message', 'chat_member']);
    await changeGroupMembership(sandbox.baseUrl, { id: 6005, first_name: 'Emil' }, groupId, 'join');
    expect((await drain(plain.token)).map((update) => Object.keys(update).filter((key) => key !== 'update_id')[0])).toEqual(['message']);
    await drain(plain.token, []);
  });

  it('refuses joining twice, leaving a group one is not in, and unknown groups, changing nothing', async () => {
    await expect(changeGroupMembership(sandbox.baseUrl, ANN, groupId, 'join')).rejects.toThrow(/400 Bad Request: user 6001 is already a member of the group/);
    await expect(changeGroupMembership(sandbox.baseUrl, { id: 6999, first_name: 'Eve' }, groupId, 'leave')).rejects.toThrow(
      /400 Bad Request: user 6999 is not a member/,
    );
    await expect(changeGroupMembership(sandbox.baseUrl, ANN, -42, 'join')).rejects.toThrow(/there is no group with the chat id -42/);
    expect(await drain(plain.token)).toEqual([]);
  });

  it('a grammY bot that asks for chat_member sees both the service message and the member update', async () => {
    const bot = new Bot(watcher.token, { client: { apiRoot: sandbox.baseUrl } });
    const seen: string[] = [];
    const done = new Promise<void>((resolve) => {
      bot.on('message:new_chat_members', (ctx) => void seen.push(`joined:${ctx.message.new_chat_members[0]!.first_name}`));
      bot.on('chat_member', (ctx) => {
        seen.push(`member:${ctx.chatMember.new_chat_member.status}`);
        resolve();
      });
    });
    await new Promise<void>((resolve) => void bot.start({ timeout: 1, allowed_updates: ['message', 'chat_member'], onStart: () => resolve() }));
    await changeGroupMembership(sandbox.baseUrl, { id: 6004, first_name: 'Dora' }, groupId, 'join');
    await done;
    await bot.stop();
    expect(seen).toEqual(['joined:Dora', 'member:member']);
  });
});
