// Buttons in the chat page, in a real browser (Debian's chromium through playwright-core), against a grammY bot
// over real HTTP: a reply keyboard above the input, the command menu, "typing…", an inline keyboard whose
// press is answered with a toast, and the message edited in place.
import { type Page } from 'playwright-core';
import { saveScreenshot, skipWithoutChromium } from '../support/browser.js';
import { describe, expect, it } from 'vitest';
import { useChatPageBot } from './chat-page.js';

const skip = skipWithoutChromium('test/web/web-chat-buttons.test.ts');

const KEYBOARD = {
  inline_keyboard: [
    [
      { text: 'Café Kiez', callback_data: 'vote:kiez' },
      { text: 'Park Café', callback_data: 'vote:park' },
    ],
  ],
};

describe.skipIf(skip)('buttons in the web chat page', () => {
  // The bot shows "typing…" and holds its reply until the test has seen the indicator.
  let releaseReply: () => void = () => undefined;
  const setup = useChatPageBot({
    dirPrefix: 'hearsay-web-buttons-',
    bot: { userId: 1, name: 'Meetup', username: 'meetup_poll_bot' },
    async configure(bot) {
      await bot.api.setMyCommands([{ command: 'poll', description: 'Where should we meet?' }]);
      bot.command('start', (ctx) => ctx.reply('Say hello.', { reply_markup: { keyboard: [[{ text: 'Hello' }]], one_time_keyboard: true } }));
      bot.command('poll', async (ctx) => {
        const seen = new Promise<void>((resolve) => (releaseReply = resolve));
        await ctx.replyWithChatAction('typing');
        await seen;
        await ctx.reply('Where should the next meetup be?', { reply_markup: KEYBOARD });
      });
      bot.callbackQuery(/^vote:(\w+)$/, async (ctx) => {
        const park = ctx.match[1] === 'park';
        await ctx.answerCallbackQuery({ text: park ? 'Park it is!' : 'Thanks!', show_alert: park });
        await ctx.editMessageText(`You chose ${ctx.match[1]}.`);
      });
    },
  });

  const say = async (page: Page, text: string) => {
    await page.locator('#text').fill(text);
    await page.locator('#text').press('Enter');
  };

  it('presses a reply keyboard and an inline button, shows the toast and the edit in place', async () => {
    const { baseUrl, context } = setup;
    const page = await context.newPage();
    await page.goto(`${baseUrl}/?user=7101&name=Lou`);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('live');
    await page.locator('#chat-list button[data-peer="meetup_poll_bot"]').click();
    await expect.poll(() => page.locator('#peer-title').textContent()).toBe('Meetup');

    // The reply keyboard shows above the input; its button sends its label and, being one-time, goes away.
    await say(page, '/start');
    const hello = page.locator('#reply-keyboard .reply-button', { hasText: 'Hello' });
    await hello.waitFor();
    await hello.click();
    await page.locator('#messages .bubble.own .text', { hasText: 'Hello' }).waitFor();
    await page.locator('#reply-keyboard').waitFor({ state: 'hidden' });

    // The command menu lists what setMyCommands set; choosing a command sends it.
    await page.locator('#commands-button').click();
    const pollCommand = page.locator('#command-menu .command-item', { hasText: '/poll' });
    expect(await pollCommand.locator('.command-description').textContent()).toBe('Where should we meet?');
    await pollCommand.click();
    await page.locator('#typing', { hasText: 'Meetup is typing…' }).waitFor();
    releaseReply();

    const poll = page.locator('#messages .bubble.theirs', { hasText: 'Where should the next meetup be?' });
    await poll.waitFor();
    await expect.poll(() => page.locator('#typing').isHidden()).toBe(true);
    const messageId = await poll.getAttribute('data-message-id');
    await saveScreenshot(page, 'web-chat-inline-keyboard.png');
    await poll.locator('.inline-button', { hasText: 'Café Kiez' }).click();

    await page.locator('#toast', { hasText: 'Thanks!' }).waitFor();
    await saveScreenshot(page, 'web-chat-buttons.png');
    const edited = page.locator(`#messages [data-message-id="${messageId}"]`);
    await edited.locator('.text', { hasText: 'You chose kiez.' }).waitFor();
    expect(await edited.locator('.edited').textContent()).toBe('edited');
    expect(await edited.locator('.inline-button').count()).toBe(0);
    // /start, its answer, Hello, /poll and the poll: the edit added no message.
    expect(await page.locator('#messages .bubble').count()).toBe(5);

    // An answer with show_alert is a dialog to dismiss.
    await say(page, '/poll');
    await page.locator('#typing', { hasText: 'Meetup is typing…' }).waitFor();
    releaseReply();
    const second = page.locator('#messages .bubble.theirs', { hasText: 'Where should the next meetup be?' });
    await second.waitFor();
    const again = page.locator(`#messages [data-message-id="${await second.getAttribute('data-message-id')}"]`);
    await again.locator('.inline-button', { hasText: 'Park Café' }).click();
    await page.locator('#alert-dialog', { hasText: 'Park it is!' }).waitFor();
    await page.locator('#alert-dialog button').click();
    await page.locator('#alert-dialog').waitFor({ state: 'hidden' });
    await again.locator('.text', { hasText: 'You chose park.' }).waitFor();
  });
});
