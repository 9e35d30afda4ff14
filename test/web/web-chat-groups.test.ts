// Groups in the chat page, in a real browser (Debian's chromium through playwright-core), against a grammY bot
// over real HTTP: a group is listed, Join makes the page's user a member (the service message shows, the bot
// greets them, their posts reach it), Leave ends it.
import { saveScreenshot, skipWithoutChromium } from '../support/browser.js';
import { describe, expect, it } from 'vitest';
import { createGroup, groupMessages } from '../support/sandbox-harness.js';
import { useChatPageBot } from './chat-page.js';

const skip = skipWithoutChromium('test/web/web-chat-groups.test.ts');

const ANN = { id: 7301, first_name: 'Ann' };
const LOU = 7302;

describe.skipIf(skip)('groups in the web chat page', () => {
  let groupId: number;
  const setup = useChatPageBot({
    dirPrefix: 'hearsay-web-groups-',
    bot: { userId: ANN.id, name: 'Greeter', username: 'club_greeter_bot' },
    async configure(bot, { baseUrl, username }) {
      groupId = await createGroup(baseUrl, { title: 'Book club', members: [ANN], bots: [username] });
      bot.on('message:new_chat_members', (ctx) => ctx.reply(`Welcome, ${ctx.message.new_chat_members[0]!.first_name}!`));
      bot.on('message:left_chat_member', (ctx) => ctx.reply(`Bye, ${ctx.message.left_chat_member.first_name}.`));
      bot.command('rules', (ctx) => ctx.reply('Be kind.'));
    },
  });

  it('joins a group from its chat, sees the welcome, posts, and leaves', async () => {
    const { baseUrl, context } = setup;
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
