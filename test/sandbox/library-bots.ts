// Bots written with client libraries (grammY, Telegraf, node-telegram-bot-api) run against the sandbox: what
// starting one returns, node-telegram-bot-api's polling loop, and the sandbox and bot a describe block shares.
import type { Bot as NtbaBot } from 'node-telegram-bot-api';
import { afterAll, beforeAll } from 'vitest';
import { createBotViaAssistant, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

/** A running bot: the library's polling loop, stopped by `stop`. */
export interface RunningBot {
  stop(): Promise<void>;
}

/** Starts a library bot with its token, talking to the API at `apiRoot`. */
export type Starter = (token: string, apiRoot: string) => Promise<RunningBot>;

/** Starts node-telegram-bot-api's polling loop (1 s long polls); `stop` ends it and waits for the loop to finish. */
export function pollWithNtba(bot: NtbaBot): RunningBot {
  const polling = bot.startPolling(undefined, { timeout: 1 });
  return {
    stop: async () => {
      bot.stop();
      await polling;
    },
  };
}

/** Registers the describe block's hooks: a sandbox, a bot created through BotMaker and started with `start`; both stopped after all its tests. */
export function useLibraryBotInSandbox(start: Starter, bot: { name: string; username: string }): { readonly sandbox: StartedSandbox } {
  const setup = {} as { sandbox: StartedSandbox };
  let running: RunningBot | undefined;

  beforeAll(async () => {
    setup.sandbox = await startSandbox();
    const { token } = await createBotViaAssistant(setup.sandbox.baseUrl, { userId: 1, ...bot });
    running = await start(token, setup.sandbox.baseUrl);
  });
  afterAll(async () => {
    await running?.stop();
    await setup.sandbox?.close();
  });
  return setup;
}
