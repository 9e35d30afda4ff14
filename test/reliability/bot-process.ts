// One bot run as a real `hearsay run` process against the sandbox, restartable with the same data directory
// (and, in webhook mode, the same port), for the regression tests of messages that must never be lost.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBotViaAssistant, type StartedSandbox } from '../support/sandbox-harness.js';
import { freePort, startBotRun, versionedRules, webhookEnv, writeRules, type RunProcess } from '../e2e/run-process.js';

export const WEBHOOK_SECRET = 'nothing_lost-Secret_42';

export interface BotProcess {
  bot: { token: string; username: string; id: number };
  /** The user who created the bot through BotMaker (and may ask it for a new token). */
  ownerId: number;
  dataDir: string;
  stateDir: string;
  /** The webhook server's URL (webhook mode). */
  webhookUrl: string;
  /** Starts `hearsay run`; waits for "hearsay is running" unless `wait` is false. */
  launch(options?: { env?: Record<string, string>; token?: string; wait?: boolean }): Promise<RunProcess>;
}

let counter = 0;

export async function setUpBot(sandbox: StartedSandbox, mode: 'polling' | 'webhook', running: RunProcess[]): Promise<BotProcess> {
  counter += 1;
  const suffix = `${process.pid % 10_000}_${counter}`;
  const ownerId = 700 + counter;
  const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: ownerId, name: 'Keeper', username: `keeper_${mode}_${suffix}_bot` });
  const rules = await writeRules(versionedRules('v1'));
  const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-nothing-lost-'));
  const port = await freePort();
  const settings = { baseUrl: sandbox.baseUrl, rulesDir: rules.dir, dataDir, running };
  const launch: BotProcess['launch'] = async ({ env = {}, token = bot.token, wait = true } = {}) => {
    const ingress = { HEARSAY_MODE: mode, HEARSAY_POLLING_TIMEOUT: '1', ...webhookEnv(port, WEBHOOK_SECRET) };
    const run = startBotRun({ ...settings, token }, { ...ingress, HEARSAY_LOG_LEVEL: 'info', ...env });
    if (wait) await run.waitForLine(/hearsay is running/);
    return run;
  };
  return { bot, ownerId, dataDir, stateDir: join(dataDir, `bot-${bot.id}`), webhookUrl: `http://127.0.0.1:${port}/hook`, launch };
}

/** A text update as the service would send it, for posting to the webhook directly. */
export function textUpdate(updateId: number, userId: number, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const from = { id: userId, is_bot: false, first_name: `User${userId}` };
  return {
    update_id: updateId,
    message: { message_id: updateId, date: 1_700_000_000, chat: { id: userId, type: 'private', first_name: from.first_name }, from, text, ...extra },
  };
}

/** An update the rules answer nothing to (a sticker): handling it only writes the journal, so it is quick. */
export function stickerUpdate(updateId: number, userId: number): Record<string, unknown> {
  return {
    update_id: updateId,
    message: { message_id: updateId, date: 1_700_000_000, chat: { id: userId, type: 'private' }, sticker: { file_id: `s${updateId}` } },
  };
}

/** Posts a raw body to the webhook with the right secret; resolves with the HTTP status (0: no answer). */
export async function postToWebhook(url: string, body: string): Promise<number> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET },
      body,
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}
