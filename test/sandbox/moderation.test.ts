// The moderation methods of the sandbox, called by grammY and Telegraf bots over real HTTP, with the right
// present and missing: deletemessage (others' messages, 48 hours), restrictchatmember (a muted member's send
// refused), banchatmember / unbanchatmember, join requests (and writing first to a requester), pinchatmessage; and
// what members and bots see.
import type { Update } from '@grammyjs/types';
import { Api, GrammyError } from 'grammy';
import { Telegraf } from 'telegraf';
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

const ANN = { id: 7201, first_name: 'Ann' };
const BEN = { id: 7202, first_name: 'Ben' };
const CARL = { id: 7203, first_name: 'Carl' };
const DORA = { id: 7204, first_name: 'Dora' };
const EVE = { id: 7205, first_name: 'Eve' };

describe('moderation in the sandbox', () => {
  let sandbox: StartedSandbox;
  let mod: Api;
  let plain: Api;
  let modBot: { token: string; username: string; id: number };
  let plainBot: { token: string; username: string; id: number };
  let groupId: number;
  let basicId: number;

  const refusal = async (call: Promise<unknown>): Promise<string> => {
    const error = await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof GrammyError)) throw new Error(`expected a refusal, got ${String(error)}`);
    return `${error.error_code} ${error.description}`;
  };
  const drain = async (api: Api): Promise<Update[]> => {
    const updates = await api.getUpdates({ timeout: 0, allowed_updates: ['message', 'chat_member', 'my_chat_member', 'chat_join_request'] });
    if (updates.length > 0) await api.getUpdates({ offset: updates.at(-1)!.update_id + 1, timeout: 0 });
    return updates;
  };
  const clientSend = async (user: { id: number; first_name: string }, text: string) => {
    const response = await fetch(`${sandbox.baseUrl}/client/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user, chat: groupId, text }),
    });
    return { status: response.status, body: (await response.json()) as { ok: boolean; description?: string } };
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    modBot = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Mod', username: 'mod_moderation_bot' });
    plainBot = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Plain', username: 'plain_moderation_bot' });
    mod = new Api(modBot.token, { apiRoot: sandbox.baseUrl });
    plain = new Api(plainBot.token, { apiRoot: sandbox.baseUrl });
    groupId = await createGroup(sandbox.baseUrl, {
      title: 'Kiez',
      type: 'supergroup',
      members: [ANN, BEN, CARL, DORA],
      bots: [modBot.username, plainBot.username],
      admins: [{ user: BEN.id }, { bot: modBot.username }],
    });
    basicId = await createGroup(sandbox.baseUrl, { title: 'Basic', members: [ANN, CARL], bots: [modBot.username], admins: [{ bot: modBot.username }] });
  });
  afterAll(async () => {
    await sandbox.close();
  });
  beforeEach(async () => {
    await drain(mod);
    await drain(plain);
  });

  it('deletemessage: others’ messages only with the right, none older than 48 hours; members see it gone', async () => {
    const spam = await sendToGroup(sandbox.baseUrl, CARL, groupId, 'buy now https://spam.example');
    expect(await refusal(plain.deleteMessage(groupId, spam.message_id))).toBe("400 Bad Request: message can't be deleted");
    expect(await mod.deleteMessage(groupId, spam.message_id)).toBe(true);
    const changed = await fetch(`${sandbox.baseUrl}/client/messages?user=${ANN.id}&chat=${groupId}&changed_after=0`).then(
      (r) => r.json() as Promise<{ result: { message_id: number; deleted?: boolean }[] }>,
    );
    expect(changed.result.find((m) => m.message_id === spam.message_id)).toMatchObject({ deleted: true });
    // The bot's own message is always its to delete, but not after 48 hours.
    const own = await plain.sendMessage(groupId, 'mine');
    const old = await sendToGroup(sandbox.baseUrl, CARL, groupId, 'from long ago');
    sandbox.sandbox.store.groupMessages(groupId).find((m) => m.message_id === old.message_id)!.date -= 49 * 3600;
    expect(await plain.deleteMessage(groupId, own.message_id)).toBe(true);
    expect(await refusal(mod.deleteMessage(groupId, old.message_id))).toBe("400 Bad Request: message can't be deleted for everyone");
  });

  it('restrictchatmember mutes a member: getchatmember says restricted, their send is refused with 403, all permissions lift it', async () => {
    expect(await refusal(plain.restrictChatMember(groupId, CARL.id, { can_send_messages: false }))).toBe(
      '400 Bad Request: not enough rights to restrict/unrestrict chat member',
    );
    const until = Math.floor(Date.now() / 1000) + 3600;
    expect(await mod.restrictChatMember(groupId, CARL.id, { can_send_messages: false }, { until_date: until })).toBe(true);
    expect(await mod.getChatMember(groupId, CARL.id)).toMatchObject({ status: 'restricted', until_date: until, can_send_messages: false, is_member: true });
    const [update] = await drain(mod);
    expect(update!.chat_member).toMatchObject({ from: { id: modBot.id }, old_chat_member: { status: 'member' }, new_chat_member: { status: 'restricted' } });
    expect(await clientSend(CARL, 'let me talk')).toEqual({
      status: 403,
      body: { ok: false, error_code: 403, description: 'Forbidden: CHAT_SEND_PLAIN_FORBIDDEN' },
    });
    const all = { can_send_messages: true, can_send_audios: true, can_send_documents: true, can_send_photos: true, can_send_videos: true };
    const rest = { can_send_video_notes: true, can_send_voice_notes: true, can_send_polls: true, can_send_other_messages: true };
    const more = { can_add_web_page_previews: true, can_change_info: true, can_invite_users: true, can_pin_messages: true, can_manage_topics: true };
    await mod.restrictChatMember(groupId, CARL.id, { ...all, ...rest, ...more });
    expect((await mod.getChatMember(groupId, CARL.id)).status).toBe('member');
    expect((await clientSend(CARL, 'thanks')).status).toBe(200);
  });

  it('restrictchatmember: a date under 30 seconds away is for good; administrators and basic groups are refused', async () => {
    await mod.restrictChatMember(groupId, DORA.id, { can_send_messages: false }, { until_date: Math.floor(Date.now() / 1000) + 5 });
    expect(await mod.getChatMember(groupId, DORA.id)).toMatchObject({ status: 'restricted', until_date: 0 });
    expect(await refusal(mod.restrictChatMember(groupId, BEN.id, { can_send_messages: false }))).toBe('400 Bad Request: user is an administrator of the chat');
    expect(await refusal(mod.restrictChatMember(basicId, CARL.id, { can_send_messages: false }))).toBe(
      '400 Bad Request: method is available only for supergroups',
    );
    await mod.restrictChatMember(groupId, DORA.id, { can_send_messages: true }, { use_independent_chat_permissions: true });
    expect(await mod.getChatMember(groupId, DORA.id)).toMatchObject({ status: 'restricted', can_send_messages: true, can_send_photos: false });
  });

  it('banchatmember removes the member (a service message says who did it) and keeps them out; unbanchatmember lets them back', async () => {
    expect(await refusal(plain.banChatMember(groupId, DORA.id))).toBe('400 Bad Request: not enough rights to restrict/unrestrict chat member');
    expect(await refusal(mod.banChatMember(groupId, ANN.id))).toBe("400 Bad Request: can't remove chat owner");
    const telegraf = new Telegraf(modBot.token, { telegram: { apiRoot: sandbox.baseUrl } });
    expect(await telegraf.telegram.banChatMember(groupId, DORA.id)).toBe(true);
    const [notice] = (await groupMessages(sandbox.baseUrl, ANN.id, groupId)).filter((m) => m.left_chat_member?.id === DORA.id);
    expect(notice).toMatchObject({ from: { id: modBot.id, is_bot: true }, left_chat_member: { id: DORA.id } });
    expect((await plain.getChatMember(groupId, DORA.id)).status).toBe('kicked');
    await expect(changeGroupMembership(sandbox.baseUrl, DORA, groupId, 'join')).rejects.toThrow(/403 Forbidden: user 7204 is banned from the group/);
    expect(await telegraf.telegram.unbanChatMember(groupId, DORA.id, { only_if_banned: true })).toBe(true);
    expect((await plain.getChatMember(groupId, DORA.id)).status).toBe('left');
    await changeGroupMembership(sandbox.baseUrl, DORA, groupId, 'join');
    // As documented by the service: unbanning a member who is in the group removes them, unless only_if_banned.
    await mod.unbanChatMember(groupId, DORA.id, { only_if_banned: true });
    expect((await plain.getChatMember(groupId, DORA.id)).status).toBe('member');
    await mod.unbanChatMember(groupId, DORA.id);
    expect((await plain.getChatMember(groupId, DORA.id)).status).toBe('left');
    await changeGroupMembership(sandbox.baseUrl, DORA, groupId, 'join');
  });

  it('join requests: the request reaches administrator bots with can_invite_users; approve lets the user in, decline does not', async () => {
    const response = await fetch(`${sandbox.baseUrl}/client/groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Ask first',
        type: 'supergroup',
        join_by_request: true,
        members: [ANN],
        bots: [modBot.username, plainBot.username],
        admins: [{ bot: modBot.username }],
      }),
    });
    const chatId = ((await response.json()) as { result: { chat_id: number } }).result.chat_id;
    await drain(mod);
    await drain(plain);
    const asked = await changeGroupMembership(sandbox.baseUrl, EVE, chatId, 'join');
    expect(asked).toEqual({ chat_id: chatId, pending: true });
    const [request] = await drain(mod);
    expect(request!.chat_join_request).toMatchObject({ chat: { id: chatId }, from: { id: EVE.id }, user_chat_id: EVE.id });
    expect(await drain(plain)).toEqual([]);
    // While the request waits, the administrator bot may write first to the requester (who never wrote to it); the other may not.
    expect((await mod.sendMessage(request!.chat_join_request!.user_chat_id, 'Why do you want to join?')).chat.id).toBe(EVE.id);
    expect(await refusal(plain.sendMessage(EVE.id, 'Hi'))).toBe("403 Forbidden: bot can't initiate conversation with a user");
    expect(await refusal(plain.approveChatJoinRequest(chatId, EVE.id))).toBe('400 Bad Request: CHAT_ADMIN_REQUIRED');
    expect(await mod.approveChatJoinRequest(chatId, EVE.id)).toBe(true);
    expect((await mod.getChatMember(chatId, EVE.id)).status).toBe('member');
    expect(await refusal(mod.approveChatJoinRequest(chatId, EVE.id))).toBe('400 Bad Request: USER_ALREADY_PARTICIPANT');
    await changeGroupMembership(sandbox.baseUrl, { ...CARL }, chatId, 'join');
    expect(await mod.declineChatJoinRequest(chatId, CARL.id)).toBe(true);
    // Once it is answered, the request no longer opens the private chat.
    expect(await refusal(mod.sendMessage(CARL.id, 'Hi'))).toBe("403 Forbidden: bot can't initiate conversation with a user");
    expect((await mod.getChatMember(chatId, CARL.id)).status).toBe('left');
    expect(await refusal(mod.declineChatJoinRequest(chatId, CARL.id))).toBe('400 Bad Request: HIDE_REQUESTER_MISSING');
  });

  it('pinchatmessage needs can_pin_messages; the pin is a service message and getchat shows it', async () => {
    const rules = await mod.sendMessage(groupId, 'Rules: be kind.');
    expect(await refusal(plain.pinChatMessage(groupId, rules.message_id))).toBe('400 Bad Request: not enough rights to manage pinned messages in the chat');
    expect(await mod.pinChatMessage(groupId, rules.message_id)).toBe(true);
    expect((await plain.getChat(groupId)).pinned_message).toMatchObject({ message_id: rules.message_id, text: 'Rules: be kind.' });
    const [pinNotice] = (await drain(plain)).filter((update) => update.message?.pinned_message);
    expect(pinNotice!.message).toMatchObject({ from: { id: modBot.id }, pinned_message: { message_id: rules.message_id } });
    expect(await refusal(mod.pinChatMessage(groupId, 99_999))).toBe('400 Bad Request: message to pin not found');
    expect(await mod.unpinChatMessage(groupId)).toBe(true);
    expect((await plain.getChat(groupId)).pinned_message).toBeUndefined();
  });
});
