// Group administrators in the sandbox, over real HTTP: a group created with administrators, promotion and
// demotion from the client API, getchatadministrators and getchatmember with real statuses, my_chat_member
// and chat_member for the changes, administrator bots and bots without privacy mode seeing every message,
// and BotMaker's /setprivacy.
import { Api } from 'grammy';
import { Telegraf } from 'telegraf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  askAssistant,
  createBotViaAssistant,
  createGroup,
  promoteInGroup,
  sendAsUser,
  sendToGroup,
  startSandbox,
  type StartedSandbox,
} from '../support/sandbox-harness.js';
import { callBot, drainUpdates, type Envelope } from './bot-calls.js';

const ANN = { id: 7101, first_name: 'Ann', username: 'ann' };
const BEN = { id: 7102, first_name: 'Ben' };
const CARL = { id: 7103, first_name: 'Carl' };

describe('group administrators', () => {
  let sandbox: StartedSandbox;
  let mod: { token: string; username: string; id: number };
  let plain: { token: string; username: string; id: number };
  let groupId: number;

  const call = <T = unknown>(token: string, method: string, params: Record<string, unknown> = {}) => callBot<T>(sandbox.baseUrl, token, method, params);
  const drain = (token: string, allowed?: string[]) => drainUpdates(sandbox.baseUrl, token, allowed);
  const client = async (path: string, body: unknown): Promise<{ status: number; body: Envelope }> => {
    const response = await fetch(`${sandbox.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Envelope };
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    mod = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Mod', username: 'mod_admin_bot' });
    plain = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Plain', username: 'plain_admin_bot' });
    // Both bots ask for chat_member as well, which only an administrator receives.
    await drain(mod.token, ['message', 'my_chat_member', 'chat_member']);
    await drain(plain.token, ['message', 'my_chat_member', 'chat_member']);
    groupId = await createGroup(sandbox.baseUrl, {
      title: 'Kiez',
      type: 'supergroup',
      members: [ANN, BEN, CARL],
      bots: [mod.username, plain.username],
      admins: [{ user: BEN.id }, { bot: mod.username, rights: { can_delete_messages: true, can_restrict_members: true } }],
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  describe('a group created with administrators', () => {
    it('tells an administrator bot it joined as administrator with exactly the rights given', async () => {
      const [update] = await drain(mod.token);
      expect(update!.my_chat_member).toMatchObject({
        chat: { id: groupId, type: 'supergroup' },
        from: { id: ANN.id },
        old_chat_member: { status: 'left' },
        new_chat_member: {
          status: 'administrator',
          user: { id: mod.id, is_bot: true },
          can_delete_messages: true,
          can_restrict_members: true,
          can_pin_messages: false,
          can_manage_topics: false,
          can_promote_members: false,
          is_anonymous: false,
        },
      });
      const [plainUpdate] = await drain(plain.token);
      expect(plainUpdate!.my_chat_member!.new_chat_member).toEqual({ status: 'member', user: expect.objectContaining({ id: plain.id }) });
    });

    it('getchatmember shows the creator, administrators with their rights, members and those not in the group', async () => {
      const member = async (userId: number) =>
        (await call<Record<string, unknown>>(plain.token, 'getchatmember', { chat_id: groupId, user_id: userId })).result;
      expect(await member(ANN.id)).toEqual({ status: 'creator', user: expect.objectContaining({ id: ANN.id }), is_anonymous: false });
      expect(await member(BEN.id)).toMatchObject({
        status: 'administrator',
        can_delete_messages: true,
        can_pin_messages: true,
        can_manage_topics: true,
        is_anonymous: false,
      });
      expect(await member(mod.id)).toMatchObject({ status: 'administrator', can_delete_messages: true, can_pin_messages: false });
      expect(await member(CARL.id)).toEqual({ status: 'member', user: expect.objectContaining({ id: CARL.id }) });
      expect(await member(plain.id)).toEqual({ status: 'member', user: expect.objectContaining({ id: plain.id, is_bot: true }) });
    });

    it('getchatadministrators lists the creator and administrators, other bots only with return_bots', async () => {
      const ids = async (token: string, extra: Record<string, unknown> = {}) =>
        (await call<{ user: { id: number }; status: string }[]>(token, 'getchatadministrators', { chat_id: groupId, ...extra })).result.map(
          (admin) => `${admin.user.id}:${admin.status}`,
        );
      expect(await ids(mod.token)).toEqual([`${ANN.id}:creator`, `${BEN.id}:administrator`, `${mod.id}:administrator`]);
      expect(await ids(plain.token)).toEqual([`${ANN.id}:creator`, `${BEN.id}:administrator`]);
      expect(await ids(plain.token, { return_bots: true })).toEqual([`${ANN.id}:creator`, `${BEN.id}:administrator`, `${mod.id}:administrator`]);
      await sendAsUser(sandbox.baseUrl, ANN, mod.username, 'hi');
      expect(await call(mod.token, 'getchatadministrators', { chat_id: ANN.id })).toMatchObject({
        ok: false,
        error_code: 400,
        description: 'Bad Request: there are no administrators in the private chat',
      });
    });
  });

  it('grammY and Telegraf read administrators and statuses through their own methods', async () => {
    const api = new Api(mod.token, { apiRoot: sandbox.baseUrl });
    const admins = await api.getChatAdministrators(groupId);
    expect(admins.map((admin) => admin.status)).toEqual(['creator', 'administrator', 'administrator']);
    const me = await api.getChatMember(groupId, mod.id);
    expect(me.status === 'administrator' && me.can_restrict_members).toBe(true);
    const telegraf = new Telegraf(plain.token, { telegram: { apiRoot: sandbox.baseUrl } });
    expect((await telegraf.telegram.getChatMember(groupId, ANN.id)).status).toBe('creator');
    expect((await telegraf.telegram.getChatAdministrators(groupId)).map((admin) => admin.user.id)).toEqual([ANN.id, BEN.id]);
  });

  describe('who sees what', () => {
    beforeEach(async () => {
      await drain(mod.token);
      await drain(plain.token);
    });

    it('an administrator bot receives every message of the group, a bot in privacy mode only what is meant for it', async () => {
      await sendToGroup(sandbox.baseUrl, CARL, groupId, 'just chatting');
      expect((await drain(mod.token)).map((update) => update.message?.text)).toEqual(['just chatting']);
      expect(await drain(plain.token)).toEqual([]);
    });

    it('BotMaker /setprivacy → @bot → Disable lets every message through; Enable restores privacy mode', async () => {
      expect(await askAssistant(sandbox.baseUrl, ANN, '/setprivacy')).toMatch(/Choose a bot/);
      const explained = await askAssistant(sandbox.baseUrl, ANN, `@${plain.username}`);
      expect(explained).toContain('Current status is: ENABLED');
      expect(await askAssistant(sandbox.baseUrl, ANN, 'Disable')).toBe('Success! The new status is: DISABLED. /help');
      await sendToGroup(sandbox.baseUrl, CARL, groupId, 'anyone there?');
      expect((await drain(plain.token)).map((update) => update.message?.text)).toEqual(['anyone there?']);

      await askAssistant(sandbox.baseUrl, ANN, '/setprivacy');
      expect(await askAssistant(sandbox.baseUrl, ANN, `@${plain.username}`)).toContain('Current status is: DISABLED');
      expect(await askAssistant(sandbox.baseUrl, ANN, 'Enable')).toBe('Success! The new status is: ENABLED. /help');
      await sendToGroup(sandbox.baseUrl, CARL, groupId, 'quiet again');
      expect(await drain(plain.token)).toEqual([]);
    });

    it('BotMaker offers the bots and the two modes as a keyboard, and refuses a bot that is not yours', async () => {
      await askAssistant(sandbox.baseUrl, ANN, '/setprivacy');
      const messages = await fetch(`${sandbox.baseUrl}/client/messages?user=${ANN.id}&with=BotMaker`).then(
        (r) => r.json() as Promise<Envelope<{ reply_markup?: unknown }[]>>,
      );
      expect(messages.result.at(-1)!.reply_markup).toMatchObject({ keyboard: [[{ text: `@${mod.username}` }], [{ text: `@${plain.username}` }]] });
      expect(await askAssistant(sandbox.baseUrl, ANN, '@someone_elses_bot')).toMatch(/^Invalid bot selected/);
      expect(await askAssistant(sandbox.baseUrl, ANN, '/cancel')).toBe('The command /setprivacy has been cancelled. Anything else I can do for you?');
      expect(await askAssistant(sandbox.baseUrl, BEN, '/setprivacy')).toBe('You have no bots yet. Send /newbot to create one.');
    });
  });

  describe('promotion from the client API', () => {
    beforeEach(async () => {
      await drain(mod.token);
      await drain(plain.token);
    });

    it('promoting a user: getchatmember says administrator, administrator bots get chat_member, the others nothing', async () => {
      expect(await client(`/client/groups/${groupId}/promote`, { user: CARL.id, rights: { can_pin_messages: true } })).toEqual({
        status: 200,
        body: { ok: true, result: true },
      });
      const [update] = await drain(mod.token);
      expect(update!.chat_member).toMatchObject({
        chat: { id: groupId },
        from: { id: ANN.id },
        old_chat_member: { status: 'member', user: { id: CARL.id } },
        new_chat_member: { status: 'administrator', user: { id: CARL.id }, can_pin_messages: true, can_delete_messages: false },
      });
      expect(await drain(plain.token)).toEqual([]);
      // Rights that are all false demote.
      await promoteInGroup(sandbox.baseUrl, groupId, { user: CARL.id, rights: {} });
      const [demoted] = await drain(mod.token);
      expect(demoted!.chat_member!.new_chat_member).toEqual({ status: 'member', user: expect.objectContaining({ id: CARL.id }) });
    });

    it('promoting a bot (all rights by default): its my_chat_member says administrator, and it sees every message', async () => {
      await promoteInGroup(sandbox.baseUrl, groupId, { bot: plain.username });
      const [update] = await drain(plain.token);
      expect(update!.my_chat_member).toMatchObject({
        old_chat_member: { status: 'member' },
        new_chat_member: { status: 'administrator', can_delete_messages: true, can_restrict_members: true, can_pin_messages: true, can_invite_users: true },
      });
      await sendToGroup(sandbox.baseUrl, CARL, groupId, 'seen by both');
      expect((await drain(plain.token)).map((u) => u.message?.text ?? Object.keys(u)[1])).toEqual(['seen by both']);
      await promoteInGroup(sandbox.baseUrl, groupId, { bot: plain.username, rights: {} });
      expect((await drain(plain.token))[0]!.my_chat_member!.new_chat_member.status).toBe('member');
    });

    it('refuses what cannot be done, saying why', async () => {
      const refused = async (path: string, body: unknown) => {
        const answer = await client(path, body);
        expect(answer.status).toBe(400);
        return answer.body.description;
      };
      expect(await refused(`/client/groups/${groupId}/promote`, { user: 999_999 })).toMatch(/name the administrator as \{"user": <user id>\}/);
      await sendAsUser(sandbox.baseUrl, { id: 7199, first_name: 'Outsider' }, mod.username, 'hi');
      expect(await refused(`/client/groups/${groupId}/promote`, { user: 7199 })).toBe(`Bad Request: user 7199 is not a member of the group ${groupId}`);
      expect(await refused(`/client/groups/${groupId}/promote`, { user: ANN.id })).toMatch(/created the group/);
      expect(await refused(`/client/groups/${groupId}/promote`, { user: BEN.id, rights: { can_fly: true } })).toMatch(
        /unknown right "can_fly"; the rights are can_manage_chat, /,
      );
      expect(await refused('/client/groups', { title: 'X', members: [ANN], bots: [], admins: [{ bot: mod.username }] })).toBe(
        `Bad Request: administrator @${mod.username} must also be listed in bots`,
      );
    });
  });
});
