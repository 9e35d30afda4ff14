// The demo's help desk: the "Support team" group the demo makes in its sandbox (a forum; Sam its staff; the bot
// an administrator that may manage topics), and the configuration pointed at it (the `staff` chat, the hand-off's
// chat, and chat names that named the configured hand-off chat; a missing handoff: block gets the usual one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceConfig } from '../../src/config/index.js';
import { createDemoStaffGroup, DEMO_STAFF, withDemoStaffGroup } from '../../src/demo/demo-staff-group.js';
import { createBotViaAssistant, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

describe('the demo staff group', () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('is a forum named Support team, Sam its creator (staff) and the bot an administrator that may manage topics', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9801, name: 'Demo', username: 'staff_group_demo_bot' });
    const chatId = await createDemoStaffGroup(sandbox.baseUrl, bot.username);
    const api = async (method: string, params: Record<string, unknown>) =>
      (
        (await (await fetch(`${sandbox.baseUrl}/bot${bot.token}/${method}?${new URLSearchParams(params as Record<string, string>)}`)).json()) as {
          result: never;
        }
      ).result;
    expect(await api('getChat', { chat_id: chatId })).toMatchObject({ id: chatId, type: 'supergroup', title: 'Support team', is_forum: true });
    expect(await api('getChatMember', { chat_id: chatId, user_id: bot.id })).toMatchObject({ status: 'administrator', can_manage_topics: true });
    expect(await api('getChatMember', { chat_id: chatId, user_id: DEMO_STAFF.id })).toMatchObject({ status: 'creator', user: { first_name: 'Sam' } });
    const topics = await (await fetch(`${sandbox.baseUrl}/client/topics?user=${DEMO_STAFF.id}&chat=${chatId}`)).json();
    expect(topics).toEqual({ ok: true, result: [] });
  });

  it('becomes the staff chat and the hand-off chat, keeping the configured idle and end words', () => {
    const configured = {
      chats: { staff: -1001234567890, desk: -1001234567890, archive: -1009 },
      handoff: { chatId: -1001234567890, idleMs: 60_000, end: ['fertig'] },
    } as unknown as ServiceConfig;
    const pointed = withDemoStaffGroup(configured, -1004242);
    expect(pointed.chats).toEqual({ staff: -1004242, desk: -1004242, archive: -1009 });
    expect(pointed.handoff).toEqual({ chatId: -1004242, idleMs: 60_000, end: ['fertig'] });
    const bare = withDemoStaffGroup({ chats: {}, handoff: null } as unknown as ServiceConfig, -1004242);
    expect(bare.chats).toEqual({ staff: -1004242 });
    expect(bare.handoff).toEqual({ chatId: -1004242, idleMs: 7_200_000, end: ['done', '/done'] });
  });
});
