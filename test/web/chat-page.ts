// The setting of the chat page tests that talk to a grammY bot: the sandbox with its web chat page, a bot made
// through BotMaker and polling it over real HTTP, and a chromium with a profile of its own, for a describe block.
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

export interface ChatPageBotOptions {
  /** The temporary directory's name prefix (the browser profile lives there). */
  dirPrefix: string;
  /** The BotMaker user who creates the bot, and the bot's name and username. */
  bot: { userId: number; name: string; username: string };
  /** Sets up the bot (handlers, commands, groups it is in) before it starts polling. */
  configure(bot: Bot, page: { baseUrl: string; username: string }): void | Promise<void>;
  /** Polling options besides the 1 s timeout (e.g. allowed_updates). */
  polling?: Omit<PollingOptions, 'timeout' | 'onStart'>;
}

export interface ChatPageBot {
  readonly baseUrl: string;
  readonly context: BrowserContext;
  readonly bot: Bot;
  readonly username: string;
}

/** Registers the describe block's hooks: page sandbox, polling bot and chromium started before its tests (60 s allowed), all stopped after. */
export function useChatPageBot(options: ChatPageBotOptions): ChatPageBot {
  let dir: string | undefined;
  let sandbox: Sandbox | undefined;
  let baseUrl: string;
  let context: BrowserContext | undefined;
  let bot: Bot | undefined;
  let username: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), options.dirPrefix));
    ({ sandbox, baseUrl } = await startPageSandbox());
    const created = await createBotViaAssistant(baseUrl, options.bot);
    username = created.username;
    bot = new Bot(created.token, { client: { apiRoot: baseUrl } });
    await options.configure(bot, { baseUrl, username });
    await new Promise<void>((resolve) => void bot!.start({ ...options.polling, timeout: 1, onStart: () => resolve() }));
    context = await launchChromiumContext(join(dir, 'profile'));
  }, 60_000);

  afterAll(async () => {
    await bot?.stop();
    await context?.close();
    await sandbox?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  return {
    get baseUrl() {
      return baseUrl;
    },
    get context() {
      return context!;
    },
    get bot() {
      return bot!;
    },
    get username() {
      return username;
    },
  };
}
