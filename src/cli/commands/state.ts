// `hearsay state show|forget --user ID`: what the bot keeps about a user (their variables and unfinished
// flows; a hand-off to a person said in words), and deleting it (a data-deletion request). Works whether the
// bot runs or not, on either store, through the store's operator door (src/store/operator-store.ts), which never makes a second writer.
import { Command } from 'commander';
import { NoAnswerError, operateOnStore, type OperatorRequest } from '../../store/operator-store.js';
import type { UserRecord } from '../../store/records.js';
import { processSecrets } from '../../log/secrets.js';
import { HANDOFF_TOPIC_VARIABLE, HANDOFF_VARIABLE, topicLink } from '../../engine/handoff.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE, USAGE_EXIT_CODE } from '../../errors/exit-codes.js';
import { noAnswerText, operatorConfig } from './operator-config.js';

const STATE_HELP = {
  show:
    '\nThe bot is found by BOT_TOKEN or BOT_TOKEN_FILE, as for hearsay run. Works while the bot runs (it answers\n' +
    'the request) or is stopped; nothing is changed. Exit codes: 0 done, 1 failed, 2 usage error.',
  forget:
    '\nThe bot is found by BOT_TOKEN or BOT_TOKEN_FILE, as for hearsay run. Works while the bot runs (it answers\n' +
    'the request) or is stopped. Chat variables belong to the chat and are kept. Exit codes: 0 done, 1 failed, 2 usage error.',
} as const;

export function stateCommand(): Command {
  const command = new Command('state').description('show or forget what the bot keeps about a user (variables and unfinished flows)');
  for (const op of ['show', 'forget'] as const) {
    command.addCommand(
      new Command(op)
        .exitOverride()
        .showHelpAfterError(`(run 'hearsay state ${op} --help' for usage)`)
        .description(op === 'show' ? "print a user's variables and unfinished flows as JSON" : "delete a user's variables and unfinished flows in every chat")
        .requiredOption('--user <id>', 'the user id (as in the update: message.from.id)')
        .option('--config <file>', 'config file (default: hearsay.yaml in the working directory, if present)')
        .option('--data-dir <dir>', 'directory of the service state (default: data_dir of the config, else .hearsay-data)')
        .addHelpText('after', STATE_HELP[op])
        .action(async (options: { user: string; config?: string; dataDir?: string }) => {
          process.exitCode = await runState(op, options);
        }),
    );
  }
  return command;
}

async function runState(op: OperatorRequest['op'], options: { user: string; config?: string; dataDir?: string }): Promise<number> {
  const fail = (message: string, code: number) => {
    process.stderr.write(`hearsay state ${op}: ${processSecrets.scrub(message)}\n`);
    return code;
  };
  if (!/^-?\d{1,16}$/.test(options.user) || !Number.isSafeInteger(Number(options.user)))
    return fail(`--user must be a user id (a whole number), not '${options.user}'`, USAGE_EXIT_CODE);
  const userId = Number(options.user);
  const loaded = await operatorConfig(options);
  if ('problem' in loaded) return fail(loaded.problem, USAGE_EXIT_CODE);
  const { config, botId } = loaded;
  let record: UserRecord;
  try {
    record = await operateOnStore(config, botId, { op, userId });
  } catch (error) {
    if (error instanceof NoAnswerError) return fail(noAnswerText(error), FAILURE_EXIT_CODE);
    return fail(error instanceof Error ? error.message : String(error), FAILURE_EXIT_CODE);
  }
  if (op === 'show') process.stdout.write(`${JSON.stringify(withHandoff(record, config.handoff?.chatId), null, 2)}\n`);
  else {
    const variables = Object.keys(record.variables ?? {}).length;
    process.stdout.write(
      `forgot user ${userId}: ${variables} variable${variables === 1 ? '' : 's'}, ${record.flows.length} unfinished flow${record.flows.length === 1 ? '' : 's'}\n`,
    );
  }
  return OK_EXIT_CODE;
}

/**
 * The record as shown, saying in words (`handoff`, after the user id) when the user is handed off to a person:
 * since when, by which rule, and where staff answer them. The variables behind it stay as they are.
 */
export function withHandoff(record: UserRecord, staffChat: number | string | undefined): UserRecord & { handoff?: string } {
  const marker = record.variables?.[HANDOFF_VARIABLE];
  if (typeof marker !== 'string') return record;
  const [since, ...rule] = marker.split('|');
  const when = Number.isFinite(Number(since)) ? new Date(Number(since)).toISOString() : String(since);
  const topic = record.variables?.[HANDOFF_TOPIC_VARIABLE];
  const staff = staffChat === undefined ? 'the staff group' : `the staff group ${staffChat}`;
  let where: string;
  if (typeof topic !== 'number') where = `its topic in ${staff} is being opened`;
  else if (topic === 0) where = `${staff} has no topics: staff answer by replying to the copies`;
  else {
    const link = typeof staffChat === 'number' ? topicLink(staffChat, topic) : '';
    where = `topic ${topic} in ${staff}${link ? ` (${link})` : ''}`;
  }
  const { userId, ...rest } = record;
  return { userId, handoff: `in hand-off since ${when} (rule ${rule.join('|')}), ${where}`, ...rest };
}
