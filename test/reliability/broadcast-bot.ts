// A bot for the broadcast tests: a real `hearsay run` against the sandbox, with users the store already knows
// (their variables written into the bot's journal before it starts, as earlier conversations would have left
// them, and their private chats opened in the sandbox), the broadcast command run as a process, and every
// message the bot sends recorded in the order the sandbox ran them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@grammyjs/types';
import { createLogger } from '../../src/log/logger.js';
import { botStateDir, UpdateJournal } from '../../src/store/file/update-journal.js';
import { runCli, startRun, writeRules, type RunProcess } from '../e2e/run-process.js';
import { createBotViaAssistant, type StartedSandbox } from '../support/sandbox-harness.js';

/** A user to seed: id and user variables. */
export interface SeedUser {
  readonly id: number;
  readonly variables: Readonly<Record<string, string | number>>;
}

/** One message the bot sent (or tried to), in the order the sandbox ran the calls. */
export interface SentMessage {
  readonly chat: number;
  readonly text: string;
  readonly ok: boolean;
  readonly description?: string;
}

export interface BroadcastBot {
  readonly bot: { token: string; username: string; id: number };
  readonly dataDir: string;
  readonly env: Record<string, string>;
  /** Every sendmessage of this bot so far. */
  readonly sent: SentMessage[];
  /** Users who wrote /start to the bot (their private chats open) and whose variables its stopped store keeps. */
  seedUsers(users: readonly SeedUser[]): Promise<void>;
  launch(env?: Record<string, string>): Promise<RunProcess>;
  /** Runs `hearsay broadcast ARGS` with the bot's environment. */
  cli(args: string[], env?: Record<string, string>): ReturnType<typeof runCli>;
  /** Writes a file for --text-file or --buttons-file; returns its path. */
  file(name: string, content: string): string;
  /** How many messages with `text` each chat got (only chats that got one). */
  deliveries(text: string): Map<number, number>;
  stop(): void;
}

export const BROADCAST_RULES = [
  'rules:',
  '  - id: ping',
  '    command: ping',
  '    reply: "pong"',
  '  - id: subscribe',
  '    command: subscribe',
  '    set: { user.newsletter: "yes" }',
  '    reply: "Subscribed."',
  '',
].join('\n');

let counter = 0;

/** Opens the users' private chats with the bot in the sandbox (as a /start they wrote would), without an update. */
function openChats(sandbox: StartedSandbox, username: string, users: readonly number[]): void {
  const { store } = sandbox.sandbox;
  const peer = store.peerByUsername(username)!;
  for (const id of users) {
    const from = { id, is_bot: false, first_name: `U${id}` };
    store.rememberUser({ id, first_name: from.first_name });
    store.appendMessage(
      id,
      peer,
      (message_id, date) => ({ message_id, date, chat: { id, type: 'private', first_name: from.first_name }, from, text: '/start' }) as Message,
    );
  }
}

/** Writes the users' variables into the bot's journal (the bot is not running). */
async function seedStore(dataDir: string, botId: number, users: readonly SeedUser[]): Promise<void> {
  const dir = botStateDir(dataDir, botId);
  mkdirSync(dir, { recursive: true });
  const journal = UpdateJournal.open({ dir, logger: createLogger({ level: 'silent' }) });
  await Promise.all(
    users.map((user) =>
      journal.commitState({
        scope: { chatId: user.id, userId: user.id },
        changes: Object.entries(user.variables).map(([key, value]) => ({ type: 'set_state', scope: 'user', key, value })),
      }),
    ),
  );
  await journal.close();
}

export async function setUpBroadcastBot(sandbox: StartedSandbox, running: RunProcess[], baseEnv: Record<string, string> = {}): Promise<BroadcastBot> {
  counter += 1;
  const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9400 + counter, name: 'Shop', username: `shop_${process.pid % 10_000}_${counter}_bot` });
  const rules = await writeRules(BROADCAST_RULES);
  const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-broadcast-'));
  const env = { BOT_TOKEN: bot.token, BASE_URL: sandbox.baseUrl, HEARSAY_RULES: rules.dir, HEARSAY_DATA_DIR: dataDir, ...baseEnv };
  const sent: SentMessage[] = [];
  const stop = sandbox.sandbox.onBotApiCall(({ bot: caller, method, params, ok, description }) => {
    if (caller.toLowerCase() !== bot.username.toLowerCase() || method !== 'sendmessage') return;
    sent.push({ chat: Number(params.chat_id), text: String(params.text), ok, ...(description ? { description } : {}) });
  });
  return {
    bot,
    dataDir,
    env,
    sent,
    seedUsers: async (users) => {
      openChats(
        sandbox,
        bot.username,
        users.map((user) => user.id),
      );
      await seedStore(dataDir, bot.id, users);
    },
    launch: async (extra = {}) => {
      const run = startRun({ env: { ...env, HEARSAY_POLLING_TIMEOUT: '1', HEARSAY_LOG_LEVEL: 'info', ...extra } });
      running.push(run);
      await run.waitForLine(/hearsay is running/, 20_000);
      return run;
    },
    cli: (args, extra = {}) => runCli(['broadcast', ...args], { ...env, ...extra }),
    file: (name, content) => {
      const path = join(dataDir, name);
      writeFileSync(path, content);
      return path;
    },
    deliveries: (text) => {
      const counts = new Map<number, number>();
      for (const message of sent) if (message.ok && message.text === text) counts.set(message.chat, (counts.get(message.chat) ?? 0) + 1);
      return counts;
    },
    stop,
  };
}

/** The campaign id a planned broadcast printed. */
export function campaignIdOf(stdout: string): string {
  const id = /campaign (\d{8}-[0-9a-f]{6}):/.exec(stdout)?.[1];
  if (!id) throw new Error(`no campaign in: ${stdout}`);
  return id;
}

/** The users whose message the log reports as performed again in doubt (a kill cut its attempt short). */
export function inDoubtRecipients(lines: readonly string[], campaign: string): Set<number> {
  const found = new Set<number>();
  const pattern = new RegExp(`"effect":"b\\.${campaign}\\.(\\d+)".*cut short`);
  for (const line of lines) {
    const match = pattern.exec(line);
    if (match) found.add(Number(match[1]));
  }
  return found;
}
