import type { Message, Update } from '@grammyjs/types';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chatMessages,
  chatState,
  createBotViaAssistant,
  createGroup,
  groupMessages,
  pressButton,
  sendAsUser,
  sendToGroup,
  startSandbox,
  waitForChat,
  type ClientMessage,
  type StartedSandbox,
} from '../support/sandbox-harness.js';

const USER = { id: 6001, first_name: 'Pia', language_code: 'de' };
const KEYBOARD = { inline_keyboard: [[{ text: 'Café Kiez', callback_data: 'vote:kiez' }], [{ text: 'Site', url: 'https://example.com' }]] };

describe('buttons, presses and edits in the sandbox (Bot API and client API)', () => {
  let sandbox: StartedSandbox;
  let token: string;
  let bot: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ callbackTimeoutMs: 400 });
    ({ token, username: bot } = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Buttons', username: 'buttons_bot' }));
    await sendAsUser(sandbox.baseUrl, USER, bot, '/start');
  });
  afterAll(async () => {
    await sandbox.close();
  });
  beforeEach(async () => {
    const pending = await call<Update[]>('getUpdates', {});
    if (pending.length > 0) await call('getUpdates', { offset: pending.at(-1)!.update_id + 1 });
  });

  async function raw(method: string, init: RequestInit): Promise<{ status: number; body: { ok: boolean; result?: unknown; description?: string } }> {
    const response = await fetch(`${sandbox.baseUrl}/bot${token}/${method}`, init);
    return { status: response.status, body: (await response.json()) as { ok: boolean; result?: unknown; description?: string } };
  }
  async function call<T = unknown>(method: string, params: Record<string, unknown>): Promise<T> {
    const { body } = await raw(method, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
    if (!body.ok) throw new Error(`${method}: ${body.description}`);
    return body.result as T;
  }
  async function failure(method: string, params: Record<string, unknown>): Promise<string | undefined> {
    const { status, body } = await raw(method, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
    expect(status).toBe(400);
    return body.description;
  }
  const send = (params: Record<string, unknown>) => call<Message.TextMessage>('sendMessage', { chat_id: USER.id, text: 'Where?', ...params });
  const messageIn = async (id: number): Promise<ClientMessage> =>
    (await chatMessages(sandbox.baseUrl, USER.id, bot)).find((m) => m.message_id === id) as ClientMessage;

  it('stores an inline keyboard, returns it in the Message and shows it to the user; reply_markup also comes as JSON text in forms and multipart', async () => {
    const sent = await send({ reply_markup: KEYBOARD });
    expect(sent.reply_markup).toEqual(KEYBOARD);
    expect((await messageIn(sent.message_id)).reply_markup).toEqual(KEYBOARD);

    const form = await raw('sendMessage', {
      method: 'POST',
      body: new URLSearchParams({ chat_id: String(USER.id), text: 'form', reply_markup: JSON.stringify(KEYBOARD) }),
    });
    expect(form.body.result).toMatchObject({ text: 'form', reply_markup: KEYBOARD });
    const multipart = new FormData();
    multipart.set('chat_id', String(USER.id));
    multipart.set('text', 'multipart');
    multipart.set('reply_markup', JSON.stringify(KEYBOARD));
    const parts = await raw('sendMessage', { method: 'POST', body: multipart });
    expect(parts.body.result).toMatchObject({ text: 'multipart', reply_markup: KEYBOARD });
  });

  it('refuses bad markup with the real descriptions', async () => {
    const cases: Array<[unknown, string]> = [
      ['{not json', "Bad Request: can't parse reply keyboard markup JSON object"],
      [[1], 'Bad Request: object expected as reply markup'],
      [{ inline_keyboard: [[{ text: 'x', callback_data: 'y'.repeat(65) }]] }, 'Bad Request: BUTTON_DATA_INVALID'],
      [
        { inline_keyboard: [[{ text: 'x', callback_data: '' }]] },
        "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
      ],
      [{ inline_keyboard: [[{ callback_data: 'y' }]] }, 'Bad Request: can\'t parse inline keyboard button: Can\'t find field "text"'],
      [{ inline_keyboard: [{ text: 'x', callback_data: 'y' }] }, 'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'],
      [{ inline_keyboard: [[{ text: 'x', url: 'not-a-url' }]] }, "Bad Request: inline keyboard button URL 'not-a-url' is invalid: Wrong HTTP URL"],
      [
        { inline_keyboard: [[{ text: 'x', url: 'ftp://example.com' }]] },
        "Bad Request: inline keyboard button URL 'ftp://example.com' is invalid: Unsupported URL protocol",
      ],
      [
        { inline_keyboard: [[{ text: 'x', url: 'http://localhost:8080/a' }]] },
        "Bad Request: inline keyboard button URL 'http://localhost:8080/a' is invalid: Wrong HTTP URL",
      ],
      [{ keyboard: [[42]] }, "Bad Request: can't parse keyboard button: KeyboardButton must be a String or an Object"],
    ];
    for (const [markup, description] of cases) {
      expect(await failure('sendMessage', { chat_id: USER.id, text: 'x', reply_markup: typeof markup === 'string' ? markup : JSON.stringify(markup) })).toBe(
        description,
      );
    }
    expect(await send({ reply_markup: { inline_keyboard: [[{ text: 'x', callback_data: 'y'.repeat(64) }]] } })).toHaveProperty('reply_markup');
  });

  it('a press reaches the bot as a callback_query; its answer (toast or alert) is shown on the message, once', async () => {
    const sent = await send({ reply_markup: KEYBOARD });
    const pressing = pressButton(sandbox.baseUrl, USER, { messageId: sent.message_id, data: 'vote:kiez', wait: 5 });
    const [update] = await call<Update[]>('getUpdates', { timeout: 5 });
    const query = update!.callback_query!;
    expect(query).toMatchObject({ from: { id: USER.id, first_name: 'Pia' }, data: 'vote:kiez', message: { message_id: sent.message_id, text: 'Where?' } });
    expect(query.id).toMatch(/^\d+$/);
    expect(query.chat_instance).toMatch(/^-?\d+$/);
    expect(await call('answerCallbackQuery', { callback_query_id: query.id, text: 'Thanks!', show_alert: true })).toBe(true);
    expect((await pressing).answer).toMatchObject({ status: 'answered', text: 'Thanks!', show_alert: true });
    expect((await messageIn(sent.message_id)).callback_answer).toMatchObject({ data: 'vote:kiez', status: 'answered', text: 'Thanks!' });
    expect(await failure('answerCallbackQuery', { callback_query_id: query.id })).toBe(
      'Bad Request: query is too old and response timeout expired or query ID is invalid',
    );
  });

  it('a press can name the button by its label; a url button opens its link; an unanswered press expires', async () => {
    const sent = await send({ reply_markup: KEYBOARD });
    expect(await pressButton(sandbox.baseUrl, USER, { messageId: sent.message_id, text: 'Site' })).toEqual({ url: 'https://example.com' });
    const pressed = await pressButton(sandbox.baseUrl, USER, { messageId: sent.message_id, text: 'Café Kiez', wait: 5 });
    expect(pressed.answer).toMatchObject({ status: 'expired' });
    expect(await failure('answerCallbackQuery', { callback_query_id: pressed.callback_query_id })).toBe(
      'Bad Request: query is too old and response timeout expired or query ID is invalid',
    );
  });

  it('editmessagetext changes the message in place, keeps the earlier version, and refuses what the real service refuses', async () => {
    const sent = await send({ reply_markup: KEYBOARD });
    const edited = await call<Message.TextMessage>('editMessageText', { chat_id: USER.id, message_id: sent.message_id, text: 'You chose Kiez.' });
    expect(edited).toMatchObject({ message_id: sent.message_id, text: 'You chose Kiez.' });
    expect(edited.edit_date).toBeTypeOf('number');
    expect(edited.reply_markup).toBeUndefined();
    const seen = await messageIn(sent.message_id);
    expect(seen).toMatchObject({ text: 'You chose Kiez.', edits: [{ text: 'Where?', reply_markup: KEYBOARD }] });
    expect(seen.reply_markup).toBeUndefined();

    const mine = await sendAsUser(sandbox.baseUrl, USER, bot, 'my own words');
    const notModified =
      'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';
    expect(await failure('editMessageText', { chat_id: USER.id, message_id: sent.message_id, text: 'You chose Kiez.' })).toBe(notModified);
    expect(await failure('editMessageText', { chat_id: USER.id, message_id: 9999, text: 'x' })).toBe('Bad Request: message to edit not found');
    expect(await failure('editMessageText', { chat_id: USER.id, message_id: mine.message_id, text: 'x' })).toBe("Bad Request: message can't be edited");
    expect(await failure('editMessageText', { text: 'x' })).toBe('Bad Request: message identifier is not specified');
    expect(await failure('editMessageText', { chat_id: USER.id, message_id: sent.message_id, text: '' })).toBe('Bad Request: message text is empty');
    const keyboard = { keyboard: [['A']] };
    expect(await failure('editMessageText', { chat_id: USER.id, message_id: sent.message_id, text: 'y', reply_markup: keyboard })).toBe(
      'Bad Request: inline keyboard expected',
    );
  });

  it('editmessagereplymarkup swaps the keyboard; deletemessage removes a message and readers of changes learn it', async () => {
    const sent = await send({ reply_markup: KEYBOARD });
    const other = { inline_keyboard: [[{ text: 'Again', callback_data: 'again' }]] };
    expect(await call('editMessageReplyMarkup', { chat_id: USER.id, message_id: sent.message_id, reply_markup: other })).toMatchObject({ reply_markup: other });
    await waitForChat(sandbox.baseUrl, {
      userId: USER.id,
      peer: bot,
      until: (messages) => messages.some((m) => m.message_id === sent.message_id && m.edits?.length === 1),
    });
    expect(await call('deleteMessage', { chat_id: USER.id, message_id: sent.message_id })).toBe(true);
    expect(await messageIn(sent.message_id)).toBeUndefined();
    expect(await failure('deleteMessage', { chat_id: USER.id, message_id: sent.message_id })).toBe('Bad Request: message to delete not found');
    const query = new URLSearchParams({ user: String(USER.id), with: bot, changed_after: '0' });
    const changes = (await (await fetch(`${sandbox.baseUrl}/client/messages?${query}`)).json()) as { result: ClientMessage[] };
    expect(changes.result.find((m) => m.message_id === sent.message_id)).toMatchObject({ deleted: true });
  });

  it('a reply keyboard is shown until removed; pressing its label sends that text as the user', async () => {
    const sent = await send({ text: 'Which language?', reply_markup: { keyboard: [['English', 'Deutsch']], one_time_keyboard: true } });
    expect(sent).not.toHaveProperty('reply_markup');
    expect((await messageIn(sent.message_id)).reply_markup).toMatchObject({ keyboard: [[{ text: 'English' }, { text: 'Deutsch' }]] });
    expect((await chatState(sandbox.baseUrl, USER.id, bot)).reply_keyboard).toMatchObject({ keyboard: [[{ text: 'English' }, { text: 'Deutsch' }]] });
    const pressed = await pressButton(sandbox.baseUrl, USER, { messageId: sent.message_id, text: 'Deutsch' });
    const [update] = await call<Update[]>('getUpdates', {});
    expect(update?.message).toMatchObject({ message_id: pressed.message_id, text: 'Deutsch' });
    expect((await chatState(sandbox.baseUrl, USER.id, bot)).reply_keyboard).toBeNull();
    await send({ reply_markup: { keyboard: [['Menu']] } });
    await send({ text: 'gone', reply_markup: { remove_keyboard: true } });
    expect((await chatState(sandbox.baseUrl, USER.id, bot)).reply_keyboard).toBeNull();
  });

  it('typing shows for 5 s or until the next message; wrong actions are refused', async () => {
    expect(await call('sendChatAction', { chat_id: USER.id, action: 'typing' })).toBe(true);
    expect((await chatState(sandbox.baseUrl, USER.id, bot)).action).toMatchObject({ action: 'typing' });
    await send({ text: 'done typing' });
    expect((await chatState(sandbox.baseUrl, USER.id, bot)).action).toBeNull();
    expect(await failure('sendChatAction', { chat_id: USER.id, action: 'dancing' })).toBe('Bad Request: wrong parameter action in request');
  });

  it('setmycommands per scope and language: the menu shows what applies to the chat', async () => {
    expect(await call('setMyCommands', { commands: [{ command: 'start', description: 'Start' }] })).toBe(true);
    expect(await call('setMyCommands', { commands: [{ command: 'hilfe', description: 'Hilfe' }], language_code: 'de' })).toBe(true);
    expect(await call('getMyCommands', {})).toEqual([{ command: 'start', description: 'Start' }]);
    expect((await chatState(sandbox.baseUrl, USER.id, bot)).commands).toEqual([{ command: 'hilfe', description: 'Hilfe' }]);
    expect(await call('deleteMyCommands', { language_code: 'de' })).toBe(true);
    expect((await chatState(sandbox.baseUrl, USER.id, bot)).commands).toEqual([{ command: 'start', description: 'Start' }]);
    expect(await failure('setMyCommands', { commands: [{ command: 'Start', description: 'x' }] })).toBe('Bad Request: BOT_COMMAND_INVALID');
    expect(await failure('setMyCommands', { commands: [{ command: 'start', description: ' ' }] })).toBe('Bad Request: command description must be non-empty');
  });

  it('answers the other start-up methods and keeps 404 for unknown ones', async () => {
    expect(await call('getChat', { chat_id: USER.id })).toMatchObject({ id: USER.id, type: 'private', first_name: 'Pia' });
    expect(await call('getChatMember', { chat_id: USER.id, user_id: USER.id })).toMatchObject({ status: 'member', user: { id: USER.id } });
    expect(await call('setMyDescription', { description: 'Votes on meetups' })).toBe(true);
    expect(await call('getMyDescription', {})).toEqual({ description: 'Votes on meetups' });
    expect(await call('getMyName', {})).toEqual({ name: 'Buttons' });
    expect(await call('setChatMenuButton', { menu_button: { type: 'commands' } })).toBe(true);
    expect(await call('getChatMenuButton', {})).toEqual({ type: 'commands' });
    const unknown = await raw('sendPigeon', { method: 'POST' });
    expect(unknown).toEqual({ status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } });
  });

  it('a press on a group message goes to the bot that sent it, whatever privacy mode lets through', async () => {
    const chatId = await createGroup(sandbox.baseUrl, { title: 'Meetup', members: [USER], bots: [bot] });
    const chatting = await sendToGroup(sandbox.baseUrl, USER, chatId, 'see example.com or write ann@example.org #meetup');
    const [posted] = await groupMessages(sandbox.baseUrl, USER.id, chatId, chatting.message_id - 1);
    expect(posted?.entities?.map((entity) => entity.type)).toEqual(['url', 'email', 'hashtag']);
    const sent = await call<Message.TextMessage>('sendMessage', { chat_id: chatId, text: 'Vote', reply_markup: KEYBOARD });
    await pressButton(sandbox.baseUrl, USER, { chat: chatId, messageId: sent.message_id, data: 'vote:kiez' });
    const updates = await call<Update[]>('getUpdates', {});
    // The bot first learnt that it was added to the group (my_chat_member), then got the press.
    expect(updates.map((update) => update.my_chat_member?.chat.id ?? update.callback_query?.message?.chat.id)).toEqual([chatId, chatId]);
    expect(updates[1]?.callback_query?.data).toBe('vote:kiez');
  });
});
