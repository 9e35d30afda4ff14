// `hearsay broadcast`: an operator's message to many users. The campaign is handed to the bot's store through the
// same door as `hearsay state` (src/store/operator-store.ts): the running bot plans it (file store), or the command
// plans it on Redis, which every replica shares, or on a stopped bot's files (sent once it starts). `status [ID]`
// says where campaigns stand, `cancel ID` stops one (recipients not yet sent to get nothing).
import { Command } from 'commander';
import type { ServiceConfig } from '../../config/types.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE, USAGE_EXIT_CODE } from '../../errors/exit-codes.js';
import { processSecrets } from '../../log/secrets.js';
import { AudienceSyntaxError, parseAudience } from '../../pipeline/broadcast-audience.js';
import { BroadcastRequestError, type BroadcastRequest } from '../../pipeline/broadcasts.js';
import { broadcastOnStore, NoAnswerError } from '../../store/operator-store.js';
import { MessageInputError, readBroadcastMessage } from './broadcast-message.js';
import { plannedText, statusText } from './broadcast-output.js';
import { noAnswerText, operatorConfig } from './operator-config.js';

const STORE_HELP =
  '\nThe bot is found by BOT_TOKEN or BOT_TOKEN_FILE, as for hearsay run, and its store by the same config\n' +
  '(file store: the running bot takes the request; Redis: the command works on Redis, the replicas send).\n' +
  'Exit codes: 0 done, 1 failed, 2 usage error.';

const SEND_HELP =
  '\nThe audience: every user the store knows (who wrote to the bot in private, or has variables) whose variables\n' +
  'match every --to:\n' +
  "  --to 'user.NAME=VALUE'   --to 'user.NAME!=VALUE'   --to 'user.NAME exists'   --to all\n" +
  "Users who blocked the bot (user._blocked) are left out. The message goes to each one's private chat once\n" +
  "(through restarts and crashes), behind the bot's replies, within rate_limits; a user found to have blocked\n" +
  'the bot is marked user._blocked. --buttons-file holds rows of buttons as in the rules:\n' +
  '  [[{ text: "Shop now", url: "https://example.com/sale" }]]\n' +
  STORE_HELP;

interface StoreOptions {
  config?: string;
  dataDir?: string;
}

interface SendOptions extends StoreOptions {
  to: string[];
  textFile: string;
  parseMode?: string;
  buttonsFile?: string;
  dryRun?: boolean;
}

function storeOptions(command: Command): Command {
  return command
    .option('--config <file>', 'config file (default: hearsay.yaml in the working directory, if present)')
    .option('--data-dir <dir>', 'directory of the service state (default: data_dir of the config, else .hearsay-data)');
}

export function broadcastCommand(): Command {
  const command = storeOptions(
    new Command('broadcast')
      .description('send a message to every user whose variables match (see status and cancel)')
      .option('--to <condition>', "who gets it: 'user.NAME=VALUE', 'user.NAME!=VALUE', 'user.NAME exists' or all (repeatable: all must hold)", collect, [])
      .option('--text-file <file>', 'the message text (UTF-8)')
      .option('--parse-mode <mode>', 'HTML, MarkdownV2 or Markdown (the text is checked against it first)')
      .option('--buttons-file <file>', 'a YAML file of inline buttons under the message')
      .option('--dry-run', 'print how many users it would go to and 5 of them; send nothing'),
  )
    .addHelpText('after', SEND_HELP)
    .action(async (options: SendOptions) => {
      process.exitCode = await runSend(options);
    });
  command.addCommand(
    storeOptions(new Command('status').argument('[id]', 'a campaign id (default: every campaign kept)'))
      .description("print a campaign's progress: sent, blocked, failed, left")
      .option('--json', 'print the campaigns as JSON')
      .addHelpText('after', STORE_HELP)
      .exitOverride()
      .action(async (id: string | undefined, options: StoreOptions & { json?: boolean }) => {
        process.exitCode = await runStatus(id, options);
      }),
  );
  command.addCommand(
    storeOptions(new Command('cancel').argument('<id>', 'the campaign id'))
      .description('stop a campaign: recipients not sent to yet get nothing')
      .addHelpText('after', STORE_HELP)
      .exitOverride()
      .action(async (id: string, options: StoreOptions) => {
        process.exitCode = await runOnStore('cancel', { op: 'broadcast-cancel', id }, options, (answer) =>
          answer.op === 'broadcast-cancel' ? `cancelled: ${statusText(answer.campaign)}` : '',
        );
      }),
  );
  return command;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function fail(what: string, message: string, code: number): number {
  process.stderr.write(`hearsay ${what}: ${processSecrets.scrub(message)}\n`);
  return code;
}

async function runSend(options: SendOptions): Promise<number> {
  if (options.to.length === 0) return fail('broadcast', "say whom to send to: --to 'user.NAME=VALUE' (or --to all)", USAGE_EXIT_CODE);
  if (options.textFile === undefined) return fail('broadcast', 'say what to send: --text-file FILE', USAGE_EXIT_CODE);
  try {
    parseAudience(options.to);
  } catch (error) {
    if (error instanceof AudienceSyntaxError) return fail('broadcast', error.message, USAGE_EXIT_CODE);
    throw error;
  }
  let message;
  try {
    message = readBroadcastMessage(options.textFile, options.parseMode, options.buttonsFile);
  } catch (error) {
    if (error instanceof MessageInputError) return fail('broadcast', error.message, USAGE_EXIT_CODE);
    throw error;
  }
  const request: BroadcastRequest = { op: 'broadcast', to: options.to, message, dryRun: options.dryRun === true };
  return runOnStore('broadcast', request, options, (answer, venue, config) =>
    answer.op === 'broadcast' ? plannedText(answer, options.to, venue, config.rateLimits?.overallPerSecond ?? null) : '',
  );
}

async function runStatus(id: string | undefined, options: StoreOptions & { json?: boolean }): Promise<number> {
  return runOnStore('broadcast status', { op: 'broadcast-status', ...(id !== undefined ? { id } : {}) }, options, (answer) => {
    if (answer.op !== 'broadcast-status') return '';
    if (options.json) return `${JSON.stringify(answer.campaigns, null, 2)}\n`;
    return answer.campaigns.length === 0 ? 'no campaign is kept\n' : answer.campaigns.map(statusText).join('');
  });
}

async function runOnStore(
  what: string,
  request: BroadcastRequest,
  options: StoreOptions,
  print: (
    answer: Awaited<ReturnType<typeof broadcastOnStore>>['answer'],
    venue: Awaited<ReturnType<typeof broadcastOnStore>>['venue'],
    config: ServiceConfig,
  ) => string,
): Promise<number> {
  const loaded = await operatorConfig(options);
  if ('problem' in loaded) return fail(what, loaded.problem, USAGE_EXIT_CODE);
  try {
    const { answer, venue } = await broadcastOnStore(loaded.config, loaded.botId, request);
    process.stdout.write(print(answer, venue, loaded.config));
    return OK_EXIT_CODE;
  } catch (error) {
    if (error instanceof NoAnswerError) return fail(what, noAnswerText(error), FAILURE_EXIT_CODE);
    const message = error instanceof Error ? error.message : String(error);
    // A request the bot refused as written (an unknown campaign, a --to that is no condition) is a usage error.
    const usage = error instanceof BroadcastRequestError || /is not a condition|no campaign '|say whom to send/.test(message);
    return fail(what, message, usage ? USAGE_EXIT_CODE : FAILURE_EXIT_CODE);
  }
}
