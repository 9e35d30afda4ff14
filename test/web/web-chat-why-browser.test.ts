// The chat page of `hearsay start` in chromium, at a phone's 390 px and a desktop's 1280 px: the "why?" under each
// answer (the rule, where it is written, how it matched, what changed), the notice in the chat of a bot no program
// answers, the user's app language (the updates' language_code follows), a new group with a bot and another person
// in it, and the last open chat kept across a reload; and a history read that left before a change arrives after it
// without undoing it: the "why?" under an answer stays (a CI run once saw it shown and then gone), a deleted message
// stays deleted.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, saveScreenshot, skipWithoutChromium } from '../support/browser.js';
import { createBotViaAssistant } from '../support/sandbox-harness.js';
import { spawnStart, tokenFreeEnv, waitForLogLine, type StartedDemo } from '../start/start-process.js';

const skip = skipWithoutChromium('test/web/web-chat-why-browser.test.ts');

const RULES = `languages: { default: en, supported: [en, de] }
rules:
  - id: start
    command: start
    reply:
      en: "Hello, {{user.first_name}}!"
      de: "Hallo, {{user.first_name}}!"
  - id: name
    pattern: 'my name is (?<name>\\w+)'
    set: { user.name: "{{match.name}}" }
    reply: "Noted, {{match.name}}."
  - id: fallback
    fallback: true
    reply: "Sorry?"
  - id: forget
    pattern: 'forget this'
    delete: true
    reply: "Forgotten."
`;

const SIZES = [
  { name: 'phone', width: 390, height: 780, isMobile: true },
  { name: 'desktop', width: 1280, height: 800, isMobile: false },
] as const;

describe.skipIf(skip)('the page of hearsay start in chromium: why, presence, language, groups, last chat', () => {
  let dir: string;
  let browser: Browser;
  let demo: StartedDemo;
  let pageUrl: string;
  let page: Page | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearsay-why-page-'));
    await mkdir(join(dir, 'rules'));
    await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
    demo = spawnStart(['--port', '0', '--polling-timeout', '1'], { env: tokenFreeEnv(), cwd: dir });
    pageUrl = String((await waitForLogLine(demo, /^Open http/)).page);
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

  afterEach(async () => {
    await page?.close();
    page = undefined;
  });

  async function open(size: (typeof SIZES)[number], user: number, name: string): Promise<Page> {
    page = await browser.newPage({ viewport: { width: size.width, height: size.height }, isMobile: size.isMobile, hasTouch: size.isMobile });
    await page.goto(`${pageUrl}?user=${user}&name=${name}`);
    await expect.poll(() => page!.locator('#connection').textContent()).toBe('live');
    return page;
  }

  async function send(p: Page, text: string): Promise<void> {
    await p.locator('#text').fill(text);
    await p.locator('#send').click({ timeout: 5000 });
  }

  /** On a phone the list and the chat are two views: back to the list first. */
  async function toList(p: Page, size: (typeof SIZES)[number]): Promise<void> {
    if (size.isMobile) await p.locator('#back').click();
  }

  const noSidewaysScroll = (p: Page) =>
    p.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);

  type HistoryMessage = { message_id: number; text?: string; why?: unknown; revision?: number };

  /**
   * A desktop page of `user` whose first read of the bot's chat history is held until `deliver()`, then answered with
   * `older(result)`: the copies that read would have carried had it left before a change that its answer now
   * follows (the race of the history's connection with the live events'). `deliver()` resolves once the page had
   * the answer and time to render it.
   */
  async function pageWithHeldHistory(user: number, name: string, older: (result: HistoryMessage[]) => HistoryMessage[]) {
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page = p;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    await p.route('**/client/messages?**', async (route) => {
      if (held || !route.request().url().includes('with=hearsay_demo_bot')) return route.continue();
      held = true;
      await released;
      const response = await route.fetch();
      const envelope = (await response.json()) as { ok: boolean; result: HistoryMessage[] };
      await route.fulfill({ response, json: { ...envelope, result: older(envelope.result) } });
    });
    await p.goto(`${pageUrl}?user=${user}&name=${name}`);
    await expect.poll(() => p.locator('#connection').textContent()).toBe('live');
    const deliver = async () => {
      expect(held).toBe(true);
      const historyRead = p.waitForResponse((response) => response.url().includes('with=hearsay_demo_bot'));
      release();
      await historyRead;
      // The page reads the body and renders in tasks of its own after the response.
      await p.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    };
    return { p, deliver };
  }

  it('a history read that arrives after the "why?" with an older copy of the answer leaves the "why?" in place', async () => {
    // The answer as it was before the bot explained it: no "why?", the change counter from then.
    const { p, deliver } = await pageWithHeldHistory(7301, 'Cy', (result) =>
      result.map(({ why, ...message }) => (why ? { ...message, revision: (message.revision ?? 1) - 1 } : message)),
    );
    await send(p, '/start');
    const hello = p.locator('#messages .bubble.theirs').filter({ hasText: 'Hello, Cy!' });
    const why = hello.last().locator('details.why');
    await why.waitFor();
    await deliver();
    expect(await hello.count()).toBe(1);
    expect(await why.count()).toBe(1);
  }, 60_000);

  it('a history read that left before a message was deleted does not bring the message back', async () => {
    // The user's message as it was before the bot deleted it (the change counter from then), beside what the chat holds now.
    let sentId = 0;
    const { p, deliver } = await pageWithHeldHistory(7302, 'Di', (result) => {
      const reply = result.find((message) => message.text === 'Forgotten.')!;
      const before = { ...reply, message_id: sentId, text: 'forget this', from: { id: 7302, is_bot: false, first_name: 'Di' }, revision: 1 };
      return [...result, before].sort((a, b) => a.message_id - b.message_id);
    });
    await p.route('**/client/send', async (route) => {
      const response = await route.fetch();
      const envelope = (await response.json()) as { result: { message_id: number } };
      sentId = envelope.result.message_id;
      await route.fulfill({ response, json: envelope });
    });
    await send(p, 'forget this');
    await p.locator('#messages .bubble.theirs').filter({ hasText: 'Forgotten.' }).waitFor();
    const mine = p.locator('#messages .bubble.own').filter({ hasText: 'forget this' });
    await expect.poll(() => mine.count()).toBe(0);
    await deliver();
    expect(await p.locator('#messages .bubble.theirs').filter({ hasText: 'Forgotten.' }).count()).toBe(1);
    expect(await mine.count()).toBe(0);
  }, 60_000);

  for (const [i, size] of SIZES.entries()) {
    it(`${size.name} (${size.width} px): a small "why?" under each answer opens to the rule, how it matched and what it changed`, async () => {
      const p = await open(size, 7101 + i, 'Ann');
      await send(p, '/start');
      const hello = p.locator('#messages .bubble.theirs').filter({ hasText: 'Hello, Ann!' }).last();
      const why = hello.locator('details.why');
      await why.waitFor();
      // Closed by default: only the small summary shows.
      expect(await why.evaluate((e) => (e as unknown as { open: boolean }).open)).toBe(false);
      expect(await why.locator('summary').textContent()).toBe('why?');
      await why.locator('summary').click();
      expect(await why.locator('li').first().textContent()).toBe("rule 'start' (rules/bot.yaml:3) answered: its command");

      await send(p, 'my name is Ada');
      const noted = p.locator('#messages .bubble.theirs').filter({ hasText: 'Noted, Ada.' }).last();
      await noted.locator('details.why summary').click();
      expect(await noted.locator('details.why li').allTextContents()).toEqual([
        "rule 'name' (rules/bot.yaml:8) answered: its pattern",
        'changed: user.name = "Ada"',
        expect.stringMatching(/^backend calls: none · took [\d.]+ ms$/),
      ]);

      await send(p, 'what is this?');
      const sorry = p.locator('#messages .bubble.theirs').filter({ hasText: 'Sorry?' }).last();
      await sorry.locator('details.why summary').click();
      expect(await sorry.locator('details.why li').first().textContent()).toBe("no rule matched; the fallback answered (rule 'fallback', rules/bot.yaml:12)");
      expect(await noSidewaysScroll(p)).toBe(size.width);
      await saveScreenshot(p, `web-chat-why-${size.width}.png`);
    }, 60_000);

    it(`${size.name} (${size.width} px): a bot no program answers says so in its chat`, async () => {
      const origin = new URL(pageUrl).origin;
      const username = `silent${size.width}_bot`;
      await createBotViaAssistant(origin, { userId: 7201 + i, name: 'Silent', username });
      const p = await open(size, 7201 + i, 'Bo');
      await toList(p, size);
      await p.locator(`#chat-list button[data-peer="${username}"]`).click();
      const presence = p.locator('#presence');
      await presence.waitFor({ state: 'visible' });
      expect(await presence.textContent()).toContain(`No program is answering as @${username}`);
      // The demo bot is answered: no such notice there.
      await toList(p, size);
      await p.locator('#chat-list button[data-peer="hearsay_demo_bot"]').click();
      await expect.poll(() => presence.isVisible()).toBe(false);
    }, 60_000);

    it(`${size.name} (${size.width} px): the user's app language is chosen on the page and the bot answers in it`, async () => {
      const p = await open(size, 7301 + i, 'Cleo');
      await toList(p, size);
      await p.locator('#language').selectOption('de');
      await p.locator('#chat-list button[data-peer="hearsay_demo_bot"]').click();
      await send(p, '/start');
      await p.locator('#messages .bubble.theirs').filter({ hasText: 'Hallo, Cleo!' }).waitFor();
    }, 60_000);

    it(`${size.name} (${size.width} px): a new group with the bot and another person; the open chat is kept on reload`, async () => {
      const p = await open(size, 7401 + i, 'Dana');
      await toList(p, size);
      await p.locator('#new-group').click();
      await p.locator('#group-name').fill(`Team ${size.width}`);
      await p.locator('#group-bots input[value="hearsay_demo_bot"]').check();
      await p.locator('#group-people').fill('Eve');
      await p.locator('#group-create').click();
      await expect.poll(() => p.locator('#peer-title').textContent()).toBe(`Team ${size.width}`);
      const notice = p.locator('#messages li.empty');
      expect(await notice.textContent()).toContain('Also in this group: Eve (write as Eve)');
      await send(p, '/start');
      await p.locator('#messages .bubble.theirs').filter({ hasText: 'Hello, Dana!' }).waitFor();

      await p.reload();
      await expect.poll(() => p.locator('#connection').textContent()).toBe('live');
      await expect.poll(() => p.locator('#peer-title').textContent()).toBe(`Team ${size.width}`);
      await p.locator('#messages .bubble.theirs').filter({ hasText: 'Hello, Dana!' }).waitFor();
      expect(await noSidewaysScroll(p)).toBe(size.width);
      await saveScreenshot(p, `web-chat-group-${size.width}.png`);
    }, 60_000);
  }
});
