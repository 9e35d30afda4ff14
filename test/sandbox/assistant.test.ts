import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { askAssistant, createBotViaAssistant, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const TOKEN = /(\d+):[A-Za-z0-9_-]{35}/;

describe('BotMaker, the bot-creation assistant', () => {
  let sandbox: StartedSandbox;
  beforeEach(async () => {
    sandbox = await startSandbox();
  });
  afterEach(async () => {
    await sandbox.close();
  });

  it('creates a bot through /newbot, name and username, and the token works at once', async () => {
    const { baseUrl } = sandbox;
    expect(await askAssistant(baseUrl, 1001, '/newbot')).toMatch(/name/i);
    expect(await askAssistant(baseUrl, 1001, 'Weather helper')).toMatch(/username/i);
    const answer = await askAssistant(baseUrl, 1001, 'weather_helper_bot');
    expect(answer).toMatch(/keep your token secret/i);
    const token = TOKEN.exec(answer)?.[0];
    expect(token).toBeDefined();
    const client = new BotApiClient({ baseUrl, token: token! });
    try {
      const me = await client.getMe();
      expect(me).toMatchObject({ is_bot: true, first_name: 'Weather helper', username: 'weather_helper_bot' });
      expect(String(me.id)).toBe(token!.split(':')[0]);
    } finally {
      await client.close();
    }
  });

  it('answers every wrong username with what to send instead, and keeps asking', async () => {
    const { baseUrl } = sandbox;
    await createBotViaAssistant(baseUrl, { userId: 7, name: 'First', username: 'TakenBot' });
    await askAssistant(baseUrl, 1002, '/newbot');
    await askAssistant(baseUrl, 1002, 'Second');
    expect(await askAssistant(baseUrl, 1002, 'helper')).toMatch(/must end in 'bot'/);
    expect(await askAssistant(baseUrl, 1002, 'bot')).toMatch(/5 to 32 characters/);
    expect(await askAssistant(baseUrl, 1002, 'my-helper-bot')).toMatch(/letters, digits and underscores/);
    expect(await askAssistant(baseUrl, 1002, `${'a'.repeat(30)}bot`)).toMatch(/5 to 32 characters/);
    expect(await askAssistant(baseUrl, 1002, 'takenbot')).toMatch(/already taken/);
    expect(await askAssistant(baseUrl, 1002, 'BotMaker_bot')).toMatch(TOKEN);
  });

  it('asks again for an empty-looking or over-long name', async () => {
    const { baseUrl } = sandbox;
    await askAssistant(baseUrl, 1003, '/newbot');
    expect(await askAssistant(baseUrl, 1003, 'x'.repeat(65))).toMatch(/too long/);
    expect(await askAssistant(baseUrl, 1003, 'Fine name')).toMatch(/username/);
  });

  it('/cancel stops the conversation; text outside a conversation points to /newbot and /help', async () => {
    const { baseUrl } = sandbox;
    expect(await askAssistant(baseUrl, 1004, '/cancel')).toMatch(/nothing to cancel/i);
    await askAssistant(baseUrl, 1004, '/newbot');
    expect(await askAssistant(baseUrl, 1004, '/cancel')).toMatch(/\/newbot has been cancelled/);
    expect(await askAssistant(baseUrl, 1004, 'some_name_bot')).toMatch(/\/newbot.*\/help/s);
    expect(await askAssistant(baseUrl, 1004, '/frobnicate')).toMatch(/Unknown command \/frobnicate/);
    const help = await askAssistant(baseUrl, 1004, '/start');
    for (const command of ['/newbot', '/token', '/mybots', '/cancel']) expect(help).toContain(command);
  });

  it("/mybots lists only the asking user's bots", async () => {
    const { baseUrl } = sandbox;
    expect(await askAssistant(baseUrl, 1005, '/mybots')).toMatch(/no bots yet/);
    await createBotViaAssistant(baseUrl, { userId: 1005, name: 'Alpha', username: 'alpha_bot' });
    await createBotViaAssistant(baseUrl, { userId: 1006, name: 'Beta', username: 'beta_bot' });
    const list = await askAssistant(baseUrl, 1005, '/mybots');
    expect(list).toContain('@alpha_bot');
    expect(list).not.toContain('@beta_bot');
  });

  it('/token issues a new token and the old one is refused at once with 401', async () => {
    const { baseUrl } = sandbox;
    const bot = await createBotViaAssistant(baseUrl, { userId: 1007, name: 'Gamma', username: 'gamma_bot' });
    expect(await askAssistant(baseUrl, 1007, '/token')).toContain('@gamma_bot');
    expect(await askAssistant(baseUrl, 1007, '@someone_elses_bot')).toMatch(/not one of your bots.*@gamma_bot/s);
    const answer = await askAssistant(baseUrl, 1007, '@gamma_bot');
    expect(answer).toMatch(/old token no longer works/);
    const fresh = TOKEN.exec(answer)?.[0];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(bot.token);
    expect(fresh!.split(':')[0]).toBe(String(bot.id));

    const oldClient = new BotApiClient({ baseUrl, token: bot.token });
    const newClient = new BotApiClient({ baseUrl, token: fresh! });
    try {
      const failure = await oldClient.getMe().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApiError);
      expect(failure).toMatchObject({ errorCode: 401, description: 'Unauthorized' });
      expect((await newClient.getMe()).username).toBe('gamma_bot');
    } finally {
      await oldClient.close();
      await newClient.close();
    }
  });

  it('/token without bots says to create one first', async () => {
    expect(await askAssistant(sandbox.baseUrl, 1008, '/token')).toMatch(/no bots yet.*\/newbot/s);
  });
});
