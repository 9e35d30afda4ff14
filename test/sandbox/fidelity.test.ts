// Where real bots told the sandbox from the service: formatting given as entities, numeric callback data, a
// button without a label, rows of more than 12 buttons, the bot's own membership (my_chat_member), a new bot's
// first update_id, and a few descriptions. Each behaves here as tdlib's telegram-bot-api and the service do.
import type { Message, Update } from '@grammyjs/types';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { botHttp, type BotHttp } from '../support/bot-http.js';
import { png } from '../support/images.js';
import { createBotViaAssistant, createGroup, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const USER = { id: 8301, first_name: 'Uma' };

describe('the sandbox behaves as the service where bots can tell', () => {
  let sandbox: StartedSandbox;
  let bot: BotHttp;
  let username: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    const created = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Fidel', username: 'fidelity_bot' });
    bot = botHttp(sandbox.baseUrl, created.token);
    username = created.username;
    await sendAsUser(sandbox.baseUrl, USER, username, '/start');
  });
  afterAll(async () => {
    await sandbox.close();
  });
  beforeEach(async () => {
    const pending = await bot.call<Update[]>('getUpdates', {});
    if (pending.length > 0) await bot.call('getUpdates', { offset: pending.at(-1)!.update_id + 1 });
  });

  it("numbers a new bot's updates from a high, random first id", async () => {
    const other = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Fresh', username: 'fresh_ids_bot' });
    await sendAsUser(sandbox.baseUrl, USER, other.username, 'hi');
    const [first] = await botHttp(sandbox.baseUrl, other.token).call<Update[]>('getUpdates', {});
    expect(first!.update_id).toBeGreaterThanOrEqual(100_000_000);
  });

  it('keeps formatting given as entities (without parse_mode), cut to the text, and as caption_entities', async () => {
    const entities = [
      { type: 'bold', offset: 0, length: 5 },
      { type: 'text_link', offset: 6, length: 4, url: 'https://example.com/' },
      { type: 'italic', offset: 8, length: 50 },
      { type: 'mention', offset: 0, length: 3 },
    ];
    const sent = await bot.call<Message.TextMessage>('sendMessage', { chat_id: USER.id, text: 'Hello link', entities });
    expect(sent.entities).toEqual([
      { type: 'bold', offset: 0, length: 5 },
      { type: 'text_link', offset: 6, length: 4, url: 'https://example.com/' },
      { type: 'italic', offset: 8, length: 2 },
    ]);
    // With parse_mode, the markup decides and the entities are ignored, as on the service.
    const parsed = await bot.call<Message.TextMessage>('sendMessage', { chat_id: USER.id, text: '<i>Hi</i>', parse_mode: 'HTML', entities });
    expect(parsed.entities).toEqual([{ type: 'italic', offset: 0, length: 2 }]);
    const photo = await bot.call<Message.PhotoMessage>(
      'sendPhoto',
      { chat_id: USER.id, caption: 'Menu', caption_entities: [{ type: 'underline', offset: 0, length: 4 }] },
      { photo: { data: png(4, 4), name: 'm.png' } },
    );
    expect(photo.caption_entities).toEqual([{ type: 'underline', offset: 0, length: 4 }]);
    expect(await bot.refusal('sendMessage', { chat_id: USER.id, text: 'x', entities: [{ type: 'glow', offset: 0, length: 1 }] })).toBe(
      "Bad Request: can't parse MessageEntity: Unsupported type specified",
    );
    expect(await bot.refusal('sendMessage', { chat_id: USER.id, text: 'x', entities: [{ type: 'bold', length: 1 }] })).toBe(
      'Bad Request: can\'t parse MessageEntity: Can\'t find field "offset"',
    );
  });

  it('takes numeric callback_data as text, drops a button with an empty label, and keeps 12 buttons of a row', async () => {
    const row = Array.from({ length: 13 }, (_, index) => ({ text: `${index + 1}`, callback_data: index + 1 }));
    const markup = {
      inline_keyboard: [
        [
          { text: '', callback_data: 'gone' },
          { text: 'Yes', callback_data: 42 },
        ],
        row,
        [{ text: '', callback_data: 'x' }],
      ],
    };
    const sent = await bot.call<Message.TextMessage>('sendMessage', { chat_id: USER.id, text: 'Pick', reply_markup: markup });
    const keyboard = sent.reply_markup!.inline_keyboard;
    expect(keyboard).toHaveLength(2);
    expect(keyboard[0]).toEqual([{ text: 'Yes', callback_data: '42' }]);
    expect(keyboard[1]).toHaveLength(12);
    expect(keyboard[1]![11]).toEqual({ text: '12', callback_data: '12' });
    const onlyEmpty = await bot.call<Message.TextMessage>('sendMessage', {
      chat_id: USER.id,
      text: 'None',
      reply_markup: { inline_keyboard: [[{ text: '', callback_data: 'a' }]] },
    });
    expect(onlyEmpty).not.toHaveProperty('reply_markup');
    const tooMany = { inline_keyboard: Array.from({ length: 11 }, () => Array.from({ length: 10 }, () => ({ text: 'b', callback_data: 'b' }))) };
    expect(await bot.refusal('sendMessage', { chat_id: USER.id, text: 'x', reply_markup: tooMany })).toBe('Bad Request: reply markup is too long');
  });

  it('tells the bot of its own membership: added with a group, added and removed later, blocked and unblocked', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${sandbox.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        async (response) => (await response.json()) as { ok: boolean; result?: { chat_id?: number }; description?: string },
      );
    const groupId = await createGroup(sandbox.baseUrl, { title: 'Club', members: [USER], bots: [username], type: 'supergroup' });
    const otherGroup = await createGroup(sandbox.baseUrl, { title: 'Later', members: [USER] });
    expect((await post(`/client/groups/${otherGroup}/add-bot`, { user: USER, bot: username })).ok).toBe(true);
    expect((await post(`/client/groups/${otherGroup}/add-bot`, { user: USER, bot: username })).description).toMatch(/already a member/);
    expect((await post(`/client/groups/${groupId}/remove-bot`, { user: USER, bot: username })).ok).toBe(true);
    await post('/client/block', { user: USER.id, bot: username, blocked: true });
    await post('/client/block', { user: USER.id, bot: username, blocked: true });
    await post('/client/block', { user: USER.id, bot: username, blocked: false });

    const updates = await bot.call<Update[]>('getUpdates', {});
    const changes = updates
      .filter((update) => update.my_chat_member)
      .map(({ my_chat_member: change }) => [change!.chat.id, change!.old_chat_member.status, change!.new_chat_member.status, change!.from.id]);
    expect(changes).toEqual([
      [groupId, 'left', 'member', USER.id],
      [otherGroup, 'left', 'member', USER.id],
      [groupId, 'member', 'kicked', USER.id],
      [USER.id, 'member', 'kicked', USER.id],
      [USER.id, 'kicked', 'member', USER.id],
    ]);
    // The group added to later also shows the bot joining, as a service message the bot receives.
    const added = updates.find((update) => update.message?.chat.id === otherGroup)?.message;
    expect(added?.new_chat_members).toEqual([expect.objectContaining({ username, is_bot: true })]);
    expect(await bot.refusal('sendMessage', { chat_id: groupId, text: 'still here?' }, undefined, 403)).toBe(
      'Forbidden: bot is not a member of the supergroup chat',
    );
  });

  it('words refusals as the service does', async () => {
    expect(await bot.refusal('sendMessage', { chat_id: USER.id, text: 'é'.repeat(20_000) })).toBe('Bad Request: text is too long');
    expect(await bot.refusal('setWebhook', { url: 'https://exa mple.com/hook' })).toBe('Bad Request: invalid webhook URL specified');
  });
});
