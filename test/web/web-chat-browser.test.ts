// The chat page in a real browser (Debian's chromium through playwright-core): create a bot by chatting
// with BotMaker, start hearsay against it, talk to it, and see the replies pushed without a reload.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type BrowserContext, type Page } from 'playwright-core';
import { saveScreenshot, skipWithoutChromium } from '../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { startChatPage, type ChatPage } from './chat-page.js';

const skip = skipWithoutChromium('test/web/web-chat-browser.test.ts');

const RULES = `rules:
  - id: start
    command: start
    reply: "Hello, {{user.first_name}}! Ask me about an order."
  - id: order
    pattern: 'order #?(?<num>\\d+)'
    reply: "Order {{match.num}} is on its way."
    reply_to_message: true
  - id: fallback
    fallback: true
    reply: "Sorry, I did not get that."
`;

describe.skipIf(skip)('the web chat page in chromium', () => {
  let chatPage: ChatPage | undefined;
  let dir: string;
  let baseUrl: string;
  let context: BrowserContext;
  let service: RunningService | undefined;

  beforeAll(async () => {
    chatPage = await startChatPage('hearsay-web-');
    ({ dir, baseUrl, context } = chatPage);
    await mkdir(join(dir, 'rules'));
    await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
    await chatPage?.close();
  });

  async function say(page: Page, text: string): Promise<void> {
    await page.locator('#text').fill(text);
    await page.locator('#text').press('Enter');
  }

  const lastTheirs = (page: Page) => page.locator('#messages .bubble.theirs .text').last();

  it('creates a bot through the assistant, then chats with it as hearsay answers', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/?user=4242&name=Ann`);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('live');
    await expect.poll(() => page.locator('#me-name').textContent()).toBe('Ann');
    await expect.poll(() => page.locator('#chat-list .chat-button').first().getAttribute('data-peer')).toBe('BotMaker');
    // Set once; still there at the end only if the page never reloaded.
    await page.evaluate(() => Object.assign(globalThis, { hearsayTestMarker: 'same page' }));

    await say(page, '/newbot');
    await lastTheirs(page).filter({ hasText: 'How are we going to call it?' }).waitFor();
    await say(page, 'Shop Helper');
    await lastTheirs(page).filter({ hasText: 'choose a username' }).waitFor();
    await say(page, 'shop_helper_bot');
    const done = lastTheirs(page).filter({ hasText: 'Done! Congratulations' });
    await done.waitFor();
    const token = /\d+:[A-Za-z0-9_-]{35}/.exec((await done.textContent()) ?? '')?.[0];
    expect(token, 'the token shown in the page').toBeDefined();

    // The new bot is pushed into the chat list, no reload.
    const botButton = page.locator('#chat-list button[data-peer="shop_helper_bot"]');
    await botButton.waitFor();
    expect(await botButton.locator('.chat-name').textContent()).toBe('Shop Helper');

    const secrets = new Secrets();
    const config = await loadConfig({
      cwd: dir,
      env: { BOT_TOKEN: token },
      flags: { base_url: baseUrl, rules: join(dir, 'rules'), 'polling.timeout': '1' },
      secrets,
    });
    service = await startService(config, { logger: createLogger({ level: 'silent', secrets }) });

    await botButton.click();
    await expect.poll(() => page.locator('#peer-title').textContent()).toBe('Shop Helper');
    expect(await botButton.getAttribute('aria-current')).toBe('true');
    await say(page, '/start');
    await lastTheirs(page).filter({ hasText: 'Hello, Ann! Ask me about an order.' }).waitFor();
    await say(page, 'where is my order #4711?');
    await lastTheirs(page).filter({ hasText: 'Order 4711 is on its way.' }).waitFor();
    // The reply quotes the message it answers.
    expect(await page.locator('#messages .bubble.theirs').last().locator('.quote').textContent()).toBe('where is my order #4711?');

    // Own messages on the right, replies on the left, in order, each with a time.
    const bubbles = page.locator('#messages .bubble');
    expect(
      await bubbles.evaluateAll((items) =>
        items.map((item) => `${item.classList.contains('own') ? 'me' : 'bot'}: ${item.querySelector('.text')?.textContent}`),
      ),
    ).toEqual(['me: /start', 'bot: Hello, Ann! Ask me about an order.', 'me: where is my order #4711?', 'bot: Order 4711 is on its way.']);
    expect(await page.locator('#messages .bubble time').count()).toBe(4);

    await saveScreenshot(page, 'web-chat.png');

    // Message text is shown as text, never parsed as HTML.
    await say(page, '<img src=x onerror="document.title=1"><b>bold</b>');
    await lastTheirs(page).filter({ hasText: 'Sorry, I did not get that.' }).waitFor();
    const own = page.locator('#messages .bubble.own .text').last();
    expect(await own.textContent()).toBe('<img src=x onerror="document.title=1"><b>bold</b>');
    expect(await own.locator('b, img').count()).toBe(0);

    expect(await page.evaluate(() => (globalThis as unknown as { hearsayTestMarker?: string }).hearsayTestMarker)).toBe('same page');
    await page.close();
  }, 60_000);

  it('asks a first-time visitor for a name and keeps the identity across reloads', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    const dialog = page.locator('#name-dialog');
    await dialog.waitFor();
    await page.locator('#name-input').fill('Zoe');
    await page.locator('#name-form button').click();
    await expect.poll(() => page.locator('#me-name').textContent()).toBe('Zoe');
    await expect.poll(() => page.locator('#connection').textContent()).toBe('live');
    await say(page, '/mybots');
    await lastTheirs(page).filter({ hasText: 'You have no bots yet' }).waitFor();

    await page.reload();
    await expect.poll(() => page.locator('#me-name').textContent()).toBe('Zoe');
    expect(await dialog.isVisible()).toBe(false);
    // The same user id: the earlier conversation with BotMaker is still there.
    await page.locator('#messages .bubble.own .text', { hasText: '/mybots' }).waitFor();
    await page.close();
  }, 30_000);
});
