// Moderating a group from the chat page, in a real browser (Debian's chromium through playwright-core), against a
// grammY bot over real HTTP: the page's user creates a supergroup with another person in it, makes the bot an
// administrator from the group's Admins dialog (the service then says so), sees a link deleted and its author
// muted by the bot, and, as that member, is refused when writing; a group created with the bot as administrator
// and joining by approval shows a join from the page as a request that waits.
import { describe, expect, it } from 'vitest';
import { saveScreenshot, skipWithoutChromium } from '../support/browser.js';
import { sendToGroup } from '../support/sandbox-harness.js';
import { useChatPageBot } from './chat-page.js';

const skip = skipWithoutChromium('test/web/web-chat-moderation-browser.test.ts');

const OWNER = 7501;
const LOU = 7502;
const EVE = 7503;

describe.skipIf(skip)('moderating a group from the web chat page', () => {
  const setup = useChatPageBot({
    dirPrefix: 'hearsay-web-moderation-',
    bot: { userId: OWNER, name: 'Kiez guard', username: 'kiez_guard_bot' },
    configure(bot) {
      // A link is deleted and its author muted for an hour, with a word in the group.
      bot.on('message::url', async (ctx) => {
        await ctx.deleteMessage();
        await ctx.restrictChatMember(ctx.from!.id, { can_send_messages: false }, { until_date: Math.floor(Date.now() / 1000) + 3600 });
        await ctx.reply(`${ctx.from!.first_name} is muted for an hour: no links.`);
      });
    },
    polling: { allowed_updates: ['message'] },
  });

  const member = async (chatId: number, userId: number) => {
    const response = await fetch(`${setup.baseUrl}/bot${setup.bot.token}/getChatMember?chat_id=${chatId}&user_id=${userId}`);
    return ((await response.json()) as { result: { status: string } }).result.status;
  };

  it('creates a supergroup, promotes the bot, sees a link deleted, and the muted member is refused', async () => {
    const { baseUrl, context, bot, username } = setup;
    const page = await context.newPage();
    await page.goto(`${baseUrl}/?user=${LOU}&name=Lou`);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('live');
    await page.locator('#new-group').click();
    await page.locator('#group-name').fill('Kiez Coders');
    await page.locator(`#group-bots input[value="${username}"]`).check();
    await page.locator('#group-people').fill('Ben');
    await page.locator('#group-super').check();
    await page.locator('#group-create').click();
    await expect.poll(() => page.locator('#peer-title').textContent()).toBe('Kiez Coders');
    const chatId = Number(await page.locator('#chat-list button[aria-current="true"]').first().getAttribute('data-peer'));
    expect(chatId).toBeLessThan(-1_000_000_000_000);
    const benLink = await page.locator('#messages a', { hasText: 'write as Ben' }).getAttribute('href');
    const ben = { id: Number(new URL(benLink!, baseUrl).searchParams.get('user')), first_name: 'Ben' };
    // Not an administrator yet: a plain member bot in privacy mode.
    expect(await member(chatId, bot.botInfo.id)).toBe('member');

    await page.locator('#admins').click();
    await page
      .locator('#admin-candidates li', { hasText: `@${username}` })
      .getByRole('button', { name: 'Make administrator' })
      .click();
    await expect.poll(() => page.locator('#admin-status').textContent()).toBe(`@${username} is an administrator now.`);
    await page.locator('#admin-dialog button[type="submit"]').click();
    expect(await member(chatId, bot.botInfo.id)).toBe('administrator');

    // Ben (the other person the page added) posts a link: it shows, then goes, and the bot says why.
    const spam = await sendToGroup(baseUrl, ben, chatId, 'cheap stuff at https://spam.example');
    await page.locator('#messages .bubble.theirs', { hasText: 'Ben is muted for an hour: no links.' }).waitFor();
    await expect.poll(() => page.locator(`#messages [data-message-id="${spam.message_id}"]`).count()).toBe(0);
    expect(await page.locator('#messages', { hasText: 'spam.example' }).count()).toBe(0);
    await saveScreenshot(page, 'web-chat-moderation.png');

    // As Ben, the page cannot post: the service refuses a muted member.
    const benPage = await context.newPage();
    await benPage.goto(new URL(benLink!, baseUrl).href);
    await expect.poll(() => benPage.locator('#connection').textContent()).toBe('live');
    await benPage.locator(`#chat-list button[data-peer="${chatId}"]`).click();
    await benPage.locator('#text').fill('hello?');
    await benPage.locator('#text').press('Enter');
    await expect.poll(() => benPage.locator('#send-error').textContent()).toMatch(/^Not sent: .*CHAT_SEND_PLAIN_FORBIDDEN/);
    expect(await member(chatId, ben.id)).toBe('restricted');
    await benPage.close();
    await page.close();
  });

  it('a group made with the bot as administrator and joining by approval: a join from the page waits', async () => {
    const { baseUrl, context, bot, username } = setup;
    const page = await context.newPage();
    await page.goto(`${baseUrl}/?user=${LOU}&name=Lou`);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('live');
    await page.locator('#new-group').click();
    await page.locator('#group-name').fill('Ask first');
    await page.locator(`#group-bots input[value="${username}"]`).check();
    await page.locator(`#group-bots input[data-admin="${username}"]`).check();
    await page.locator('#group-super').check();
    await page.locator('#group-approval').check();
    await page.locator('#group-create').click();
    await expect.poll(() => page.locator('#peer-title').textContent()).toBe('Ask first');
    const chatId = Number(await page.locator('#chat-list button[aria-current="true"]').first().getAttribute('data-peer'));
    expect(await member(chatId, bot.botInfo.id)).toBe('administrator');
    await page.close();

    const eve = await context.newPage();
    await eve.goto(`${baseUrl}/?user=${EVE}&name=Eve`);
    await expect.poll(() => eve.locator('#connection').textContent()).toBe('live');
    await eve.locator(`#chat-list button[data-peer="${chatId}"]`).click();
    await eve.locator('#membership', { hasText: 'Join' }).click();
    await expect.poll(() => eve.locator('#peer-sub').textContent()).toBe('group · you asked to join: an administrator decides');
    expect(await eve.locator('#membership').textContent()).toBe('Asked to join');
    expect(await eve.locator('#text').isDisabled()).toBe(true);
    expect(await member(chatId, EVE)).toBe('left');
    // Approved (here by the bot's API), the page shows Eve as a member.
    await fetch(`${baseUrl}/bot${bot.token}/approveChatJoinRequest?chat_id=${chatId}&user_id=${EVE}`);
    await expect.poll(() => eve.locator('#peer-sub').textContent()).toBe('group · you are a member');
    await eve.close();
  });
});
