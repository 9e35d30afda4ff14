// What the kill -9 tests share: a bot whose `hearsay run` is started again and again on one data directory, a seeded
// schedule of kills, and the loop that plays that schedule through while the users keep writing.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBotViaAssistant, type StartedSandbox } from '../support/sandbox-harness.js';
import { ReplyLedger } from '../support/reply-ledger.js';
import { startBotRun, writeRules, type RunProcess } from '../e2e/run-process.js';
import { seededRandom } from './seeded-random.js';

/** A bot made for a crash test, the ledger of what it answers, and a start of its `hearsay run` (always on the same data directory). */
export interface CrashBot {
  bot: { token: string; username: string; id: number };
  ledger: ReplyLedger;
  launch(): RunProcess;
}

/** What a crash test's bot is: its owner and names, its rules, and the ingress settings of its runs. */
export interface CrashBotOptions {
  ownerId: number;
  name: string;
  username: string;
  rules: string;
  ingress: Record<string, string>;
}

/** Creates the bot through BotMaker, writes its rules, and makes an empty data directory; every run logs warnings only. */
export async function setUpCrashBot(sandbox: StartedSandbox, running: RunProcess[], options: CrashBotOptions): Promise<CrashBot> {
  const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: options.ownerId, name: options.name, username: options.username });
  const rules = await writeRules(options.rules);
  const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-crash-'));
  const ledger = new ReplyLedger(sandbox.sandbox, bot.username);
  const settings = { baseUrl: sandbox.baseUrl, token: bot.token, rulesDir: rules.dir, dataDir, running };
  return { bot, ledger, launch: () => startBotRun(settings, { HEARSAY_LOG_LEVEL: 'warn', ...options.ingress }) };
}

/** When to kill: after how many replies (sorted), and how long to wait past each before the kill, in ms. */
export interface KillSchedule {
  kills: number[];
  pauses: number[];
}

/** `count` kill points drawn from `seed` in [from, from + span), each with a pause of 0-39 ms; the same seed gives the same schedule. */
export function killSchedule(seed: number, count: number, from: number, span: number): KillSchedule {
  const random = seededRandom(seed);
  const kills = Array.from({ length: count }, () => Math.floor(from + random() * span)).sort((a, b) => a - b);
  // The sandbox shares this process: a kill right when it stores a reply would always land before the
  // engine hears back, which no real crash does. A seeded pause unties the kill from the sandbox.
  const pauses = kills.map(() => Math.floor(random() * 40));
  return { kills, pauses };
}

/** How a crash test plays its schedule: `reached(n)` resolves once n replies (or handled updates) are in. */
export interface KillPlay {
  schedule: KillSchedule;
  /** Every run, in order; the first may already be in it (started by the test), else the play starts it. */
  runs: RunProcess[];
  launch(): RunProcess;
  reached(count: number): Promise<void>;
  /** The users' writing, which goes on through the kills. */
  sending: Promise<unknown>;
  total: number;
}

/**
 * Kills the newest run with SIGKILL at each point of the schedule and starts the next; after the last kill, a last run answers
 * the rest. Resolves with that last run once all `total` are in and a grace for a late duplicate has passed.
 */
export async function playKills(play: KillPlay): Promise<RunProcess> {
  for (const [k, at] of play.schedule.kills.entries()) {
    if (k > 0 || play.runs.length === 0) play.runs.push(play.launch());
    await play.reached(at);
    await new Promise((resolve) => setTimeout(resolve, play.schedule.pauses[k]));
    play.runs.at(-1)!.child.kill('SIGKILL');
    await play.runs.at(-1)!.exited;
  }
  const last = play.launch();
  play.runs.push(last);
  await play.sending;
  await play.reached(play.total);
  // Grace for a late duplicate.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return last;
}
