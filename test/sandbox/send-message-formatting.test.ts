// sendmessage with parse_mode over real HTTP, through a real client library (grammY): the stored message
// carries the entities the markup gives (and the service's detected ones), the client API and the page
// read them back, and bad markup is the service's 400 "can't parse entities: …".
import { Api, GrammyError } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

describe('sendmessage with parse_mode', () => {
  let sandbox: StartedSandbox;
  let api: Api;
  let username: string;
  const USER = 6001;

  beforeAll(async () => {
    sandbox = await startSandbox();
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Formatter', username: 'formatter_bot' });
    username = bot.username;
    api = new Api(bot.token, { apiRoot: sandbox.baseUrl });
    await sendAsUser(sandbox.baseUrl, { id: USER, first_name: 'Fay' }, username, 'hello');
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('HTML: the tags become entities of the stored message, which the client API returns too', async () => {
    const sent = await api.sendMessage(USER, '<b>Order</b> <i>1234</i> is <a href="https://example.com/t">here</a>. Try /help', { parse_mode: 'HTML' });
    expect(sent.text).toBe('Order 1234 is here. Try /help');
    expect(sent.entities).toEqual([
      { type: 'bold', offset: 0, length: 5 },
      { type: 'italic', offset: 6, length: 4 },
      { type: 'text_link', offset: 14, length: 4, url: 'https://example.com/t' },
      { type: 'bot_command', offset: 24, length: 5 },
    ]);
    const stored = (await chatMessages(sandbox.baseUrl, USER, username)).find((message) => message.message_id === sent.message_id);
    expect(stored?.entities).toEqual(sent.entities);
  });

  it('MarkdownV2: the markup becomes entities; plain text keeps only the detected ones', async () => {
    const sent = await api.sendMessage(USER, '*bold* ||hidden|| `code` and 1\\.5', { parse_mode: 'MarkdownV2' });
    expect(sent.text).toBe('bold hidden code and 1.5');
    expect(sent.entities?.map((e) => e.type)).toEqual(['bold', 'spoiler', 'code']);
    const plain = await api.sendMessage(USER, '*not bold* see /start');
    expect(plain.text).toBe('*not bold* see /start');
    expect(plain.entities).toEqual([{ type: 'bot_command', offset: 15, length: 6 }]);
  });

  it.each([
    ['HTML', 'a <div>b</div>', 'Unsupported start tag "div" at byte offset 2'],
    ['HTML', '<b>open', 'Can\'t find end tag corresponding to start tag "b"'],
    ['MarkdownV2', 'Total: 5.', "Character '.' is reserved and must be escaped with the preceding '\\'"],
    ['MarkdownV2', 'é *open', "Can't find end of Bold entity at byte offset 3"],
  ] as const)('%s %j is refused with 400 and the service wording', async (mode, text, detail) => {
    const error = await api.sendMessage(USER, text, { parse_mode: mode }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(400);
    expect((error as GrammyError).description).toBe(`Bad Request: can't parse entities: ${detail}`);
  });

  it('refuses markup that leaves no text, as an empty message', async () => {
    const error = (await api.sendMessage(USER, '<b></b>', { parse_mode: 'HTML' }).catch((caught: unknown) => caught)) as GrammyError;
    expect(error.description).toBe('Bad Request: message text is empty');
  });
});
