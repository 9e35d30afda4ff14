// The setting of the chat page tests: the sandbox with its web chat page and a chromium with a profile of its
// own in a temporary directory, and, for a describe block, a grammY bot made through BotMaker polling it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bot, type PollingOptions } from 'grammy';
import { type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { launchChromiumContext } from '../support/browser.js';
import { startPageSandbox } from '../support/page-sandbox.js';
import { createBotViaAssistant } from '../support/sandbox-harness.js';

export interface ChatPage {
  /** The temporary directory (the browser profile is its `profile`). */
  dir: string;
  sandbox: Sandbox;
  baseUrl: string;
  context: BrowserContext;
  /** Closes the browser and the sandbox and removes the directory. */
  close(): Promise<void>;
}

/** Starts the page sandbox and chromium in a new temporary directory named with `dirPrefix`. */
export async function startChatPage(dirPrefix: string): Promise<ChatPage> {
  const dir = await mkdtemp(join(tmpdir(), dirPrefix));
  const { sandbox, baseUrl } = await startPageSandbox();
  const context = await launchChromiumContext(join(dir, 'profile'));
  return {
    dir,
    sandbox,
    baseUrl,
    context,
    async close() {
      await context.close();
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface ChatPageBotOptions {
  /** The temporary directory's name prefix. */
  dirPrefix: string;
  /** The BotMaker user who creates the bot, and the bot's name and username. */
  bot: { userId: number; name: string; username: string };
  /** Sets up the bot (handlers, commands, groups it is in) before it starts polling. */
  configure(bot: Bot, page: { baseUrl: string; username: string }): void | Promise<void>;
  /** Polling options besides the 1 s timeout (e.g. allowed_updates). */
  polling?: Omit<PollingOptions, 'timeout' | 'onStart'>;
}

export interface ChatPageBot {
  baseUrl: string;
  context: BrowserContext;
  bot: Bot;
  username: string;
}

/** Registers the describe block's hooks: chat page, chromium and a polling bot started before its tests (60 s allowed), all stopped after. */
export function useChatPageBot(options: ChatPageBotOptions): ChatPageBot {
  const setup = {} as ChatPageBot;
  let page: ChatPage | undefined;
  let polling: Bot | undefined;

  beforeAll(async () => {
    page = await startChatPage(options.dirPrefix);
    setup.baseUrl = page.baseUrl;
    setup.context = page.context;
    const created = await createBotViaAssistant(page.baseUrl, options.bot);
    setup.username = created.username;
    setup.bot = new Bot(created.token, { client: { apiRoot: page.baseUrl } });
    await options.configure(setup.bot, { baseUrl: page.baseUrl, username: created.username });
    polling = setup.bot;
    await new Promise<void>((resolve) => void setup.bot.start({ ...options.polling, timeout: 1, onStart: () => resolve() }));
  }, 60_000);

  afterAll(async () => {
    await polling?.stop();
    await page?.close();
  });
  return setup;
}
