// Media on the chat page in a real browser (Debian's chromium through playwright-core): a photo the bot sends
// shows as an image loaded from the client API, a document as its name, size and a working download link, a
// venue as its name and coordinates, a caption with its formatting; and the user sends a photo (with the typed
// text as its caption) and a file from the page, which the bot receives as a photo and a document.
import type { Message, Update } from '@grammyjs/types';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot, skipWithoutChromium } from '../support/browser.js';
import { botHttp, type BotHttp } from '../support/bot-http.js';
import { png } from '../support/images.js';
import { createBotViaAssistant, sendAsUser } from '../support/sandbox-harness.js';
import { startChatPage, type ChatPage } from './chat-page.js';

/** What the tests read of an <img> in the page (the DOM types are not in this project's TypeScript libs). */
interface ImageFacts {
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
}

const skip = skipWithoutChromium('test/web/web-chat-media-browser.test.ts');
const USER = 4747;

describe.skipIf(skip)('media on the chat page in chromium', () => {
  let chatPage: ChatPage | undefined;
  let baseUrl: string;
  let bot: { token: string; username: string };
  let api: BotHttp;
  let page: Page;

  beforeAll(async () => {
    chatPage = await startChatPage('hearsay-web-media-');
    baseUrl = chatPage.baseUrl;
    bot = await createBotViaAssistant(baseUrl, { userId: USER, name: 'Picture Bot', username: 'picture_page_bot' });
    api = botHttp(baseUrl, bot.token);
    await sendAsUser(baseUrl, { id: USER, first_name: 'Ann' }, bot.username, '/start');
    page = await chatPage.context.newPage();
    await page.goto(`${baseUrl}/?user=${USER}&name=Ann`);
    await page.locator('#connection', { hasText: 'live' }).waitFor();
    await page.locator(`#chat-list button[data-peer="${bot.username}"]`).click();
  }, 60_000);

  afterAll(async () => {
    await chatPage?.close();
  });

  it('shows a photo the bot sends as an image with its formatted caption, a document with a download link, and a venue', async () => {
    await api.call(
      'sendPhoto',
      { chat_id: USER, caption: '<b>Today</b> menu', parse_mode: 'HTML' },
      { photo: { data: png(64, 48), name: 'menu.png', type: 'image/png' } },
    );
    const image = page.locator('#messages .bubble.theirs .media-photo img').last();
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: ImageFacts) => [img.complete, img.naturalWidth, img.naturalHeight])).toEqual([true, 64, 48]);
    const caption = page.locator('#messages .bubble.theirs').last().locator('.text');
    expect(await caption.locator('strong').textContent()).toBe('Today');
    expect(await caption.textContent()).toBe('Today menu');

    const pdf = Buffer.from('%PDF-1.4 price list');
    await api.call('sendDocument', { chat_id: USER }, { document: { data: pdf, name: 'prices.pdf', type: 'application/pdf' } });
    const documentBlock = page.locator('#messages .bubble.theirs .media-document').last();
    await documentBlock.waitFor();
    expect(await documentBlock.locator('.file-name').textContent()).toBe('prices.pdf');
    expect(await documentBlock.locator('.file-size').textContent()).toBe(`${pdf.length} B`);
    const href = await documentBlock.locator('a').getAttribute('href');
    const downloaded = await page.evaluate(async (url) => (await (await fetch(url!)).text()) as string, href);
    expect(downloaded).toBe(pdf.toString());

    await api.call('sendVenue', { chat_id: USER, latitude: 52.52, longitude: 13.405, title: 'Pixel Print', address: 'Torstr. 1' });
    const venue = page.locator('#messages .bubble.theirs .media-location').last();
    await venue.waitFor();
    expect(await venue.textContent()).toContain('Pixel Print');
    expect(await venue.locator('a').textContent()).toContain('52.52, 13.405');
    await saveScreenshot(page, 'web-chat-media-received.png');
  });

  it('sends a photo with the typed caption and a file from the page; the bot receives a photo and a document', async () => {
    const before = await api.call<Update[]>('getUpdates', { timeout: 0 });
    const offset = before.length > 0 ? before[before.length - 1]!.update_id + 1 : 0;

    await page.locator('#text').fill('the broken door');
    await page.locator('#attach-input').setInputFiles({ name: 'door.png', mimeType: 'image/png', buffer: png(40, 30) });
    const own = page.locator('#messages .bubble.own .media-photo img').last();
    await own.waitFor();
    await expect.poll(() => own.evaluate((img: ImageFacts) => img.naturalWidth)).toBe(40);
    expect(await page.locator('#text').inputValue()).toBe('');

    await page.locator('#attach-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('some notes') });
    await page.locator('#messages .bubble.own .media-document').last().waitFor();

    let messages: Message[] = [];
    await expect
      .poll(async () => {
        const updates = await api.call<Update[]>('getUpdates', { offset, timeout: 0 });
        messages = updates.flatMap((u) => (u.message ? [u.message] : []));
        return messages.length;
      })
      .toBe(2);
    expect(messages[0]).toMatchObject({ caption: 'the broken door', photo: expect.arrayContaining([expect.objectContaining({ width: 40, height: 30 })]) });
    expect(messages[1]).toMatchObject({ document: { file_name: 'notes.txt', file_size: 10 } });
    await saveScreenshot(page, 'web-chat-media-sent.png');
  });
});
