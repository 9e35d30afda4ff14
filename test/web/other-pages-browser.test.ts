// Web pages the developer visits cannot use the sandbox, in a real browser (Debian's chromium): a page
// whose host name resolves to 127.0.0.1 (DNS rebinding, here chromium's host resolver rules) gets 421 for
// the page and every request, so it cannot read a user's chat with BotMaker and its tokens; a page of another
// origin cannot call the Bot API even with a token; the sandbox's own page works under each of its names.
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { launchChromium, skipWithoutChromium } from '../support/browser.js';
import { chatMessages, createBotViaAssistant, sendAsUser } from '../support/sandbox-harness.js';
import { startPageSandbox } from '../support/page-sandbox.js';

const skip = skipWithoutChromium('test/web/other-pages-browser.test.ts');

describe.skipIf(skip)('other web pages against the sandbox, in chromium', () => {
  let sandbox: Sandbox;
  let baseUrl: string;
  let port: string;
  let browser: Browser;
  let otherSite: Server;
  let otherUrl: string;
  let bot: { token: string; username: string };
  let page: Page | undefined;

  beforeAll(async () => {
    ({ sandbox, baseUrl } = await startPageSandbox());
    port = new URL(baseUrl).port;
    bot = await createBotViaAssistant(baseUrl, { userId: 4101, name: 'Target', username: 'target_bot' });
    otherSite = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>another site</title>'),
    );
    await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve));
    otherUrl = `http://127.0.0.1:${(otherSite.address() as AddressInfo).port}/`;
    // rebind.example resolves to this machine, as an attacker's name does once its DNS answer changes.
    browser = await launchChromium(['--host-resolver-rules=MAP rebind.example 127.0.0.1']);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => otherSite?.close(resolve));
    await sandbox?.close();
  });

  afterEach(async () => {
    await page?.close();
    page = undefined;
  });

  it("refuses a page reached through a rebound name (421), so its script cannot read a user's BotMaker chat", async () => {
    page = await browser.newPage();
    const response = await page.goto(`http://rebind.example:${port}/`);
    expect(response?.status()).toBe(421);
    expect(await page.textContent('body')).toContain('Misdirected Request');
    const read = await page.evaluate(async () => {
      const answer = await fetch('/client/messages?user=4101&with=BotMaker');
      return { status: answer.status, text: await answer.text() };
    });
    expect(read.status).toBe(421);
    expect(read.text).not.toContain(bot.token);
  });

  it('refuses a Bot API call a page of another origin sends (403), even with the token', async () => {
    const chat = await sendAsUser(baseUrl, { id: 4102, first_name: 'Bea' }, bot.username, 'hi');
    page = await browser.newPage();
    await page.goto(otherUrl);
    // A form body needs no preflight: the browser sends it, with the page's Origin.
    await page.evaluate(
      async ({ url, chatId }) => {
        await fetch(url, { method: 'POST', mode: 'no-cors', body: new URLSearchParams({ chat_id: String(chatId), text: 'sent by another page' }) });
      },
      { url: `${baseUrl}/bot${bot.token}/sendMessage`, chatId: chat.chat_id },
    );
    const texts = (await chatMessages(baseUrl, 4102, bot.username)).map((message) => message.text);
    expect(texts).toEqual(['hi']);
  });

  it('serves its own page under localhost too: the page connects, sends and shows the answer', async () => {
    page = await browser.newPage();
    await page.goto(`http://localhost:${port}/?user=4103&name=Cy`);
    await expect.poll(() => page!.locator('#connection').textContent()).toBe('live');
    await page.locator('#text').fill('/mybots');
    await page.locator('#text').press('Enter');
    await page.locator('#messages .bubble.theirs .text').last().filter({ hasText: 'You have no bots yet' }).waitFor();
  });
});
