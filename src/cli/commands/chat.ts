// `hearsay chat`: talk to the rules in the terminal, with no sandbox and no token (src/chat/chat-session.ts runs
// the bot). Lines starting with `:` steer the session (who you are, your language, which chat, the why of each
// answer); a number presses that button while buttons are shown; anything else is said to the bot. The rules
// are reloaded when they change, as the running bot reloads them.
import { createInterface } from 'node:readline';
import { isAbsolute, relative, resolve } from 'node:path';
import { Command } from 'commander';
import { ChatSession } from '../../chat/chat-session.js';
import { ConfigError } from '../../config/index.js';
import { loadDemoSettings } from '../../demo/demo-config.js';
import { HearsayError } from '../../errors/hearsay-error.js';
import { OK_EXIT_CODE } from '../../errors/exit-codes.js';
import { createLogger } from '../../log/logger.js';
import { processSecrets } from '../../log/secrets.js';
import { HealthState } from '../../ops/health.js';
import { ServiceMetrics } from '../../ops/metrics.js';
import type { RuleWatcher } from '../../rules/watch.js';
import { startRules } from '../../service/start-rules.js';
import { reportFailure } from '../failure-output.js';

interface ChatOptions {
  rules?: string;
  config?: string;
  why?: boolean;
  as: string;
  lang?: string;
  group?: string;
}

const BOT_USERNAME = 'hearsay_chat_bot';

const HELP = [
  'Write a message and press Enter: the bot answers as it would in a chat. While buttons are shown, a number presses one.',
  '  :why            show or hide why the bot answered as it did, under each answer',
  '  :as NAME        write as another user (a new one the first time)',
  "  :lang CODE      your app's language, e.g. de (:lang - for none)",
  '  :group TITLE    move to a group chat (the bot sees commands, mentions of it and replies to it there)',
  '  :private        back to your private chat with the bot',
  '  :join / :leave  join or leave the group (the bot is told, as members joining and leaving)',
  '  :say TEXT       say TEXT as it is (a number too, while buttons are shown)',
  '  :quit           end (Ctrl-D too)',
].join('\n');

/** What a line does: steer the session (`:...`), press a shown button (a number), or say it. */
async function handleLine(session: ChatSession, line: string): Promise<string[] | 'quit'> {
  const text = line.trim();
  if (text === '') return [];
  const [word, ...rest] = text.split(/\s+/);
  const argument = rest.join(' ');
  switch (word) {
    case ':quit':
    case ':q':
      return 'quit';
    case ':help':
      return [HELP];
    case ':why':
      session.why = !session.why;
      return [`(why ${session.why ? 'shown under each answer' : 'hidden'})`];
    case ':as':
      return argument === '' ? ['(:as NAME: whom to write as)'] : [session.actAs(argument)];
    case ':lang':
      return [session.setLanguage(argument)];
    case ':group':
      return argument === '' ? ['(:group TITLE: which group)'] : [session.moveTo(argument)];
    case ':private':
      return [session.moveTo(undefined)];
    case ':join':
    case ':leave':
      return session.members(word === ':join' ? 'join' : 'leave');
    case ':say':
      return session.say(line.replace(/^\s*:say\s?/, ''));
  }
  if (word!.startsWith(':')) return [`(unknown command ${word}: :help lists them)`];
  if (/^\d+$/.test(text) && session.hasChoices) return session.press(Number(text));
  return session.say(line);
}

/** Reloads told as they happen: the problems of a broken edit (the last good rules answer meanwhile), or that the new rules answer. */
function reportReloads(rules: RuleWatcher, shown: (file: string) => string, print: (lines: string[]) => void): void {
  rules.on('reload', (event) => print([`(rules reloaded: ${event.ruleCount} rules)`]));
  rules.on('reloadFailed', ({ problems }) =>
    print([
      ...problems.filter((p) => p.severity === 'error').map((p) => `(${p.format(shown(p.file))})`),
      '(the rules have problems; the last good rules still answer)',
    ]),
  );
}

export function chatCommand(): Command {
  return new Command('chat')
    .description('talk to the rules in the terminal, with no sandbox and no token (:help inside lists what you can do)')
    .option('--rules <path>', 'the rules to talk to (default: `rules` of hearsay.yaml, else rules/)')
    .option('--config <file>', 'config file (default: hearsay.yaml in the working directory, if present)')
    .option('--why', 'show why the bot answered as it did under each answer (:why toggles it)')
    .option('--as <name>', 'the user you write as', 'You')
    .option('--lang <code>', "your app's language, e.g. de (the updates' language_code)")
    .option('--group <title>', 'start in a group chat with that title instead of your private chat')
    .addHelpText('after', `\nInside:\n${HELP}\nExit codes: 0 ended, 1 the rules cannot be loaded, 2 usage error.`)
    .action(async (options: ChatOptions) => {
      process.exitCode = await runChat(options);
    });
}

async function runChat(options: ChatOptions): Promise<number> {
  let rules: RuleWatcher;
  let rulesPath: string;
  try {
    // The chat talks to no service: BASE_URL (which a shell may have set for something else) is not read.
    const { BASE_URL: _unused, ...env } = process.env;
    const settings = await loadDemoSettings({
      env,
      ...(options.config !== undefined ? { configPath: options.config } : {}),
      flags: { rules: options.rules },
      secrets: processSecrets,
    });
    const logger = createLogger({ level: 'silent' });
    rulesPath = settings.rulesPath;
    rules = await startRules({
      rulesPath,
      limits: settings.ruleLimits,
      logger,
      metrics: new ServiceMetrics({ processMetrics: false }),
      health: new HealthState('polling'),
    });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof HearsayError) return reportFailure('chat', error);
    throw error;
  }
  const shown = (file: string) => {
    const path = relative(process.cwd(), file);
    return path.startsWith('..') || isAbsolute(path) ? file : path;
  };
  const session = new ChatSession({
    rules,
    botUsername: BOT_USERNAME,
    why: options.why === true,
    shownPath: shown,
    user: { name: options.as, ...(options.lang ? { language: options.lang } : {}) },
  });
  if (options.group !== undefined) session.moveTo(options.group);
  return converse(session, rules, shown, rulesPath);
}

/** Reads lines until :quit or the end of the input, one at a time, with flow timeouts checked every second. */
async function converse(session: ChatSession, rules: RuleWatcher, shown: (file: string) => string, rulesPath: string): Promise<number> {
  const tty = process.stdin.isTTY === true;
  const input = createInterface({ input: process.stdin, output: process.stdout, terminal: tty });
  const print = (lines: string[]) => {
    if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
  };
  const prompt = () => {
    if (!tty) return;
    input.setPrompt(`${session.where}> `);
    input.prompt();
  };
  reportReloads(rules, shown, (lines) => {
    print(lines);
    prompt();
  });
  print([`hearsay chat: you are ${session.where}, talking to the rules in ${shown(resolve(rulesPath))}. :help lists what you can do.`]);
  // One thing at a time: a line, or the clock's tick (a flow's timeout), never both at once.
  let turn = Promise.resolve();
  const ticker = setInterval(() => {
    turn = turn.then(async () => print(await session.tick()));
  }, 1000);
  prompt();
  try {
    for await (const line of input) {
      let quit = false;
      turn = turn.then(async () => {
        const lines = await handleLine(session, line);
        if (lines === 'quit') quit = true;
        else print(lines);
      });
      await turn;
      if (quit) break;
      prompt();
    }
  } finally {
    clearInterval(ticker);
    input.close();
    await turn;
    await session.close();
    await rules.close();
  }
  return OK_EXIT_CODE;
}
