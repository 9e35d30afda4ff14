// The chat page of `hearsay start` in a real browser (Debian's chromium through playwright-core): it opens
// on the demo bot, fits a 375 px phone, renders formatting from entities with clickable /commands, shows
// a banner while an edit has broken the rules, and keeps working across a restart of the server.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium, saveScreenshot, skipWithoutChromium } from '../support/browser.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { spawnStart, tokenFreeEnv, waitForLogLine, type StartedDemo } from '../start/start-process.js';

const skip = skipWithoutChromium('test/web/web-chat-demo-browser.test.ts');

const RULES = `rules:
  - id: start
    command: start
    reply: "Hello, {{user.first_name}}! Try /help."
  - id: help
    command: help
    parse_mode: HTML
    reply: "<b>Bold</b> <i>italic</i> <u>under</u> <s>struck</s> <code>code</code> <a href=\\"https://example.com/docs\\">docs</a> <tg-spoiler>secret</tg-spoiler> and /start"
  - id: pre
    command: pre
    parse_mode: MarkdownV2
    reply: "\`\`\`yaml\\nkey: value\\n\`\`\`"
  - id: fallback
    fallback: true
    reply: "Sorry, I did not get that."
`;

describe.skipIf(skip)('the page of hearsay start in chromium', () => {
  let dir: string;
  let browser: Browser;
  let demo: StartedDemo | undefined;
  let pageUrl: string;

  async function startDemo(port: number): Promise<string> {
    demo = spawnStart(['--port', String(port), '--polling-timeout', '1'], { env: tokenFreeEnv(), cwd: dir });
    const line = await waitForLogLine(demo, /^Open http/);
    return String(line.page);
  }

  async function stopDemo(): Promise<void> {
    if (!demo || demo.child.exitCode !== null) return;
    demo.child.kill('SIGTERM');
    await demo.exited;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearsay-page-'));
    await mkdir(join(dir, 'rules'));
    await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
    pageUrl = await startDemo(0);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stopDemo();
    await rm(dir, { recursive: true, force: true });
  });

  let page: Page | undefined;
  afterEach(async () => {
    await page?.close();
    page = undefined;
  });

  async function openPhone(user: number, name: string): Promise<Page> {
    page = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    await page.goto(`${pageUrl}?user=${user}&name=${name}`);
    await expect.poll(() => page!.locator('#connection').textContent()).toBe('live');
    return page;
  }

  const lastTheirs = (p: Page) => p.locator('#messages .bubble.theirs .text').last();

  it('opens on the demo bot and fits a 375 px phone: no sideways scroll, Send visible and working, list and chat toggle', async () => {
    const p = await openPhone(5001, 'Ann');
    await expect.poll(() => p.locator('#peer-title').textContent()).toBe('hearsay demo');
    const longWord = 'x'.repeat(300);
    await p.locator('#text').fill(`/start ${longWord}`);
    // A real click on Send: fails if the button is off-screen or covered.
    await p.locator('#send').click({ timeout: 5000 });
    await lastTheirs(p).filter({ hasText: 'Hello, Ann! Try /help.' }).waitFor();
    expect(
      await p.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
    ).toBe(375);
    const send = await p.locator('#send').boundingBox();
    expect(send!.x + send!.width).toBeLessThanOrEqual(375);
    expect(send!.y + send!.height).toBeLessThanOrEqual(740);

    await p.locator('#back').click();
    await p.locator('#chat-list button[data-peer="BotMaker"]').waitFor({ state: 'visible' });
    expect(await p.locator('#composer').isVisible()).toBe(false);
    expect(
      await p.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
    ).toBe(375);
    await p.locator('#chat-list button[data-peer="hearsay_demo_bot"]').click();
    await expect.poll(() => p.locator('#composer').isVisible()).toBe(true);
    await saveScreenshot(p, 'web-chat-375.png');
  }, 60_000);

  it('renders formatting from entities and sends a /command when it is pressed', async () => {
    const p = await openPhone(5002, 'Bo');
    await p.locator('#text').fill('/help');
    await p.locator('#text').press('Enter');
    const reply = p.locator('#messages .bubble.theirs .text').filter({ hasText: 'Bold' }).last();
    await reply.waitFor();
    expect(await reply.locator('strong').textContent()).toBe('Bold');
    expect(await reply.locator('em').textContent()).toBe('italic');
    expect(await reply.locator('u').textContent()).toBe('under');
    expect(await reply.locator('s').textContent()).toBe('struck');
    expect(await reply.locator('code').textContent()).toBe('code');
    expect(await reply.locator('a').getAttribute('href')).toBe('https://example.com/docs');
    const spoiler = reply.locator('.spoiler');
    expect(await spoiler.textContent()).toBe('secret');
    expect(await spoiler.evaluate((e) => e.classList.contains('revealed'))).toBe(false);
    await spoiler.click();
    expect(await spoiler.evaluate((e) => e.classList.contains('revealed'))).toBe(true);
    // Tags never show as text.
    expect(await reply.textContent()).toBe('Bold italic under struck code docs secret and /start');

    await reply.locator('button.command', { hasText: '/start' }).click();
    await lastTheirs(p).filter({ hasText: 'Hello, Bo!' }).waitFor();

    await p.locator('#text').fill('/pre');
    await p.locator('#text').press('Enter');
    const pre = p.locator('#messages .bubble.theirs pre code').last();
    await pre.waitFor();
    expect(await pre.textContent()).toBe('key: value\n');
    expect(await pre.getAttribute('data-language')).toBe('yaml');
  }, 60_000);

  it('shows a banner naming each problem while an edit has broken the rules, and clears it when fixed', async () => {
    const p = await openPhone(5003, 'Cy');
    const banner = p.locator('#rules-banner');
    expect(await banner.isVisible()).toBe(false);
    const broken = join(dir, 'rules', 'zz-broken.yaml');
    // Gone again even when an assertion below fails, so the next test starts on good rules.
    onTestFinished(() => rm(broken, { force: true }));
    await writeFile(broken, 'rules:\n  - id: bad\n    pattern: "("\n    reply: x\n');
    await banner.waitFor({ state: 'visible' });
    expect(await banner.textContent()).toContain('The last good rules still answer');
    // On a busy machine the watcher may read the file between its creation and its content (the banner then
    // says it is empty); the write's own event reloads it again, and the banner names the broken pattern.
    await expect.poll(() => p.locator('#rules-problems li').first().textContent(), { timeout: 10_000 }).toMatch(/^rules\/zz-broken\.yaml:3:\d+: /);
    // The last good rules still answer.
    await p.locator('#text').fill('/start');
    await p.locator('#send').click();
    await lastTheirs(p).filter({ hasText: 'Hello, Cy!' }).waitFor();
    await rm(broken);
    await banner.waitFor({ state: 'hidden' });
  }, 60_000);

  it('survives a restart of the server under the open page and shows the next reply', async () => {
    const p = await openPhone(5004, 'Di');
    await p.locator('#text').fill('/start');
    await p.locator('#send').click();
    await lastTheirs(p).filter({ hasText: 'Hello, Di!' }).waitFor();
    await p.evaluate(() => Object.assign(globalThis, { hearsayTestMarker: 'same page' }));

    await stopDemo();
    await expect.poll(() => p.locator('#connection').textContent()).toBe('reconnecting…');
    pageUrl = await startDemo(Number(new URL(pageUrl).port));
    await expect.poll(() => p.locator('#connection').textContent(), { timeout: 15_000 }).toBe('live');
    // The old sandbox's messages are gone with it; the new one numbers from 1 again and must still show.
    await expect.poll(() => p.locator('#messages .bubble').count()).toBe(0);
    await p.locator('#text').fill('hi there');
    await p.locator('#send').click();
    await lastTheirs(p).filter({ hasText: 'Sorry, I did not get that.' }).waitFor();
    expect(await p.locator('#messages .bubble').count()).toBe(2);
    expect(await p.evaluate(() => (globalThis as unknown as { hearsayTestMarker?: string }).hearsayTestMarker)).toBe('same page');
  }, 90_000);
});
