// Groups in the chat page, in a real browser (Debian's chromium through playwright-core), against a grammY bot
// over real HTTP: a group is listed, Join makes the page's user a member (the service message shows, the bot
// greets them, their posts reach it), Leave ends it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bot } from 'grammy';
import { type BrowserContext } from 'playwright-core';
import { launchChromiumContext, saveScreenshot, skipWithoutChromium } from '../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { createBotViaAssistant, createGroup, groupMessages } from '../support/sandbox-harness.js';
import { startPageSandbox } from '../support/page-sandbox.js';

const skip = skipWithoutChromium('test/web/web-chat-groups.test.ts');

const ANN = { id: 7301, first_name: 'Ann' };
const LOU = 7302;

describe.skipIf(skip)('groups in the web chat page', () => {
  let dir: string;
  let sandbox: Sandbox;
  let baseUrl: string;
  let context: BrowserContext;
  let bot: Bot | undefined;
  let groupId: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearsay-web-groups-'));
    ({ sandbox, baseUrl } = await startPageSandbox());
    const { token, username } = await createBotViaAssistant(baseUrl, { userId: ANN.id, name: 'Greeter', username: 'club_greeter_bot' });
    groupId = await createGroup(baseUrl, { title: 'Book club', members: [ANN], bots: [username] });
    bot = new Bot(token, { client: { apiRoot: baseUrl } });
    bot.on('message:new_chat_members', (ctx) => ctx.reply(`Welcome, ${ctx.message.new_chat_members[0]!.first_name}!`));
    bot.on('message:left_chat_member', (ctx) => ctx.reply(`Bye, ${ctx.message.left_chat_member.first_name}.`));
    bot.command('rules', (ctx) => ctx.reply('Be kind.'));
    await new Promise<void>((resolve) => void bot!.start({ timeout: 1, onStart: () => resolve() }));
    context = await launchChromiumContext(join(dir, 'profile'));
  }, 60_000);

  afterAll(async () => {
    await bot?.stop();
    await context?.close();
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('joins a group from its chat, sees the welcome, posts, and leaves', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/?user=${LOU}&name=Lou`);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('live');
    await page.locator(`#chat-list button[data-peer="${groupId}"]`).click();
    await expect.poll(() => page.locator('#peer-title').textContent()).toBe('Book club');
    expect(await page.locator('#peer-sub').textContent()).toBe('group · you are not a member');
    expect(await page.locator('#text').isDisabled()).toBe(true);

    await page.locator('#membership', { hasText: 'Join' }).click();
    await page.locator('#messages .service', { hasText: 'Lou joined the group' }).waitFor();
    const welcome = page.locator('#messages .bubble.theirs', { hasText: 'Welcome, Lou!' });
    await welcome.waitFor();
    expect(await welcome.locator('.sender').textContent()).toBe('Greeter');
    await expect.poll(() => page.locator('#membership').textContent()).toBe('Leave');
    expect(await page.locator('#peer-sub').textContent()).toBe('group · you are a member');

    await page.locator('#text').fill('/rules');
    await page.locator('#text').press('Enter');
    await page.locator('#messages .bubble.own', { hasText: '/rules' }).waitFor();
    await page.locator('#messages .bubble.theirs', { hasText: 'Be kind.' }).waitFor();
    await saveScreenshot(page, 'web-chat-group.png');

    await page.locator('#membership').click();
    await page.locator('#messages .service', { hasText: 'Lou left the group' }).waitFor();
    await expect.poll(() => page.locator('#membership').textContent()).toBe('Join');
    expect(await page.locator('#text').isDisabled()).toBe(true);
    // The others saw it all, and the bot said goodbye.
    await expect
      .poll(async () => (await groupMessages(baseUrl, ANN.id, groupId)).map((message) => message.text ?? (message.left_chat_member ? 'left' : 'joined')))
      .toEqual(['joined', 'Welcome, Lou!', '/rules', 'Be kind.', 'left', 'Bye, Lou.']);
  });
});
