// The demo's help desk on the chat page, in a real browser (Debian's chromium through playwright-core) against
// `hearsay start` with the demo's rules and hearsay.yaml: a customer on a phone asks for a human; the "Support
// team" forum group that the demo made offers to write in it as Sam; Sam's tab (a desktop) shows the group's
// topics, the customer's topic appears, Sam answers in it and the answer reaches the customer's chat, the
// customer's next message reaches the topic, and "done" hands them back (the topic shows closed). On a phone the
// forum goes list → topics → topic and back without sideways scrolling.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium, saveScreenshot, skipWithoutChromium } from '../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnStart, tokenFreeEnv, waitForLogLine, type StartedDemo } from '../start/start-process.js';

const skip = skipWithoutChromium('test/web/web-chat-forum-browser.test.ts');
const REPO = new URL('../../', import.meta.url).pathname;

describe.skipIf(skip)('the demo help desk: a forum group on the chat page', () => {
  let dir: string;
  let browser: Browser;
  let demo: StartedDemo;
  let pageUrl: string;

  beforeAll(async () => {
    // The demo's hearsay.yaml (its staff chat and hand-off block); no rules/ folder: the built-in demo rules.
    dir = await mkdtemp(join(tmpdir(), 'hearsay-forum-page-'));
    await copyFile(join(REPO, 'hearsay.yaml'), join(dir, 'hearsay.yaml'));
    demo = spawnStart(['--port', '0', '--polling-timeout', '1'], { env: tokenFreeEnv(), cwd: dir });
    pageUrl = String((await waitForLogLine(demo, /^Open http/, 30_000)).page);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (demo && demo.child.exitCode === null) {
      demo.child.kill('SIGTERM');
      await demo.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  async function open(url: string, phone: boolean): Promise<Page> {
    const page = phone
      ? await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true })
      : await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('live');
    return page;
  }
  const say = async (page: Page, text: string) => {
    await page.locator('#text').fill(text);
    await page.locator('#send').click();
  };
  const scrollWidth = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);

  it('a customer asks for a human; Sam answers in the customer topic of "Support team"; the answer arrives; done hands back', async () => {
    const cleo = await open(`${pageUrl}?user=5101&name=Cleo`, true);
    await expect.poll(() => cleo.locator('#peer-title').textContent()).toBe('hearsay demo');
    await say(cleo, 'I want to talk to a human');
    await cleo.locator('#messages .bubble.theirs', { hasText: "I've asked a colleague" }).waitFor();

    // The customer is not in the staff group: it offers to write in it as Sam, in a new tab.
    await cleo.locator('#back').click();
    const group = cleo.locator('#chat-list .chat-button', { hasText: 'Support team' });
    await group.click();
    expect(await cleo.locator('#peer-sub').textContent()).toBe('forum · you are not a member');
    const asSam = cleo.locator('#messages .empty a', { hasText: 'write as Sam' });
    const href = await asSam.getAttribute('href');
    expect(href).toMatch(/^\/\?user=\d+&name=Sam&chat=-100\d+$/);
    expect(await scrollWidth(cleo)).toBe(375);

    // Sam's tab opens on the group's topics: General and the customer's topic, which Sam opens.
    const sam = await open(new URL(href!, pageUrl).href, false);
    await expect.poll(() => sam.locator('#peer-title').textContent()).toBe('Support team');
    expect(await sam.locator('#peer-sub').textContent()).toBe('forum · you are a member');
    expect(await sam.locator('#text').isDisabled()).toBe(true);
    const topic = sam.locator('#messages .topic-button', { hasText: 'Cleo #5101' });
    await topic.waitFor();
    expect(await sam.locator('#messages .topic-button .topic-name').allTextContents()).toEqual(['General', 'Cleo #5101']);
    expect(await topic.locator('.topic-preview').textContent()).toMatch(/^hearsay demo: /);
    await topic.click();
    await expect.poll(() => sam.locator('#peer-title').textContent()).toBe('Cleo #5101');
    expect(await sam.locator('#peer-sub').textContent()).toBe('topic in Support team');
    await sam.locator('#messages .bubble.theirs', { hasText: 'Hand-off: Cleo (id 5101)' }).waitFor();
    await sam.locator('#messages .bubble.theirs', { hasText: 'I want to talk to a human' }).waitFor();
    await say(sam, 'Hi Cleo, Sam here. How can I help?');
    await sam.locator('#messages .bubble.own', { hasText: 'Hi Cleo, Sam here.' }).waitFor();
    await saveScreenshot(sam, 'web-chat-forum-topic-1280.png');

    // The answer reaches the customer's chat with the bot; the customer's reply reaches the topic.
    await cleo.locator('#back').click();
    await cleo.locator('#chat-list .chat-button', { hasText: 'hearsay demo' }).click();
    await cleo.locator('#messages .bubble.theirs', { hasText: 'Hi Cleo, Sam here. How can I help?' }).waitFor();
    await say(cleo, 'my parcel is late');
    await sam.locator('#messages .bubble.theirs', { hasText: 'my parcel is late' }).waitFor();
    await saveScreenshot(cleo, 'web-chat-forum-customer-375.png');

    // "done" hands the customer back: they are told, and the topic shows closed.
    await say(sam, 'done');
    await cleo.locator('#messages .bubble.theirs', { hasText: "You're back with the bot" }).waitFor();
    await sam.locator('#messages .service', { hasText: 'Topic closed' }).waitFor();
    await expect.poll(() => sam.locator('#peer-sub').textContent()).toBe('topic in Support team · closed');
    await sam.locator('#topics-back').click();
    await sam.locator('#messages .topic-button', { hasText: 'Cleo #5101' }).locator('.topic-closed').waitFor();
    await sam.close();
    await cleo.close();
  }, 90_000);

  it('on a phone the forum goes chat list → topics → topic and back, without sideways scrolling', async () => {
    const sam = await open(`${pageUrl}?user=7770001&name=Sam`, true);
    await sam.locator('#back').click();
    await sam.locator('#chat-list .chat-button', { hasText: 'Support team' }).click();
    const general = sam.locator('#messages .topic-button', { hasText: 'General' });
    await general.waitFor();
    expect(await scrollWidth(sam)).toBe(375);
    await general.click();
    await expect.poll(() => sam.locator('#peer-title').textContent()).toBe('General');
    expect(await sam.locator('#back').isVisible()).toBe(false);
    await say(sam, 'Morning, team.');
    await sam.locator('#messages .bubble.own', { hasText: 'Morning, team.' }).waitFor();
    const send = await sam.locator('#send').boundingBox();
    expect(send!.x + send!.width).toBeLessThanOrEqual(375);
    expect(await scrollWidth(sam)).toBe(375);
    await saveScreenshot(sam, 'web-chat-forum-general-375.png');
    await sam.locator('#topics-back').click();
    await expect.poll(() => sam.locator('#peer-title').textContent()).toBe('Support team');
    await sam.locator('#back').click();
    await sam.locator('#chat-list .chat-button', { hasText: 'Support team' }).waitFor({ state: 'visible' });
    await sam.close();
  }, 60_000);
});
