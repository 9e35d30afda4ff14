// `hearsay state show|forget --user ID`: what the bot keeps about a user (their variables and unfinished
// flows), and deleting it (a data-deletion request). Works whether the bot runs or not without ever having
// two writers on the journal: with the bot stopped, the command takes the instance lock and works on the
// journal itself; with the bot running, it asks that instance (the only writer) through a request file. On
// a Redis store it works on Redis directly (every write there is atomic, and replicas share it anyway).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { ConfigError, loadConfig } from '../../config/index.js';
import type { RedisStoreConfig } from '../../config/store.js';
import type { ServiceConfig } from '../../config/types.js';
import { askRunningInstance, NoAnswerError, type StateRequest } from '../../conversation/state-requests.js';
import { InstanceLock, InstanceLockedError } from '../../journal/instance-lock.js';
import type { UserRecord } from '../../journal/journal-state.js';
import { botStateDir, JOURNAL_FILE, UpdateJournal } from '../../journal/update-journal.js';
import { createLogger } from '../../log/logger.js';
import { processSecrets } from '../../log/secrets.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE, USAGE_EXIT_CODE } from '../../errors/exit-codes.js';

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
        .addHelpText(
          'after',
          '\nThe bot is found by BOT_TOKEN or BOT_TOKEN_FILE, as for hearsay run. Works while the bot runs (it answers\nthe request) or is stopped. Chat variables belong to the chat and are kept. Exit codes: 0 done, 1 failed, 2 usage error.',
        )
        .action(async (options: { user: string; config?: string; dataDir?: string }) => {
          process.exitCode = await runState(op, options);
        }),
    );
  }
  return command;
}

async function runState(op: StateRequest['op'], options: { user: string; config?: string; dataDir?: string }): Promise<number> {
  const fail = (message: string, code: number) => {
    process.stderr.write(`hearsay state ${op}: ${processSecrets.scrub(message)}\n`);
    return code;
  };
  if (!/^-?\d{1,16}$/.test(options.user) || !Number.isSafeInteger(Number(options.user)))
    return fail(`--user must be a user id (a whole number), not '${options.user}'`, USAGE_EXIT_CODE);
  const userId = Number(options.user);
  let config: ServiceConfig;
  try {
    config = await loadConfig({
      ...(options.config !== undefined ? { configPath: options.config } : {}),
      flags: { data_dir: options.dataDir },
      secrets: processSecrets,
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return fail(error.problems.map((p) => p.format()).join('; '), USAGE_EXIT_CODE);
  }
  const botId = Number(config.token.split(':')[0]);
  let record: UserRecord;
  try {
    if (config.store.kind === 'redis') record = await withRedisStore(config.store, botId, { op, userId });
    else {
      const stateDir = botStateDir(config.dataDir, botId);
      record = existsSync(join(stateDir, JOURNAL_FILE)) ? await withStore(stateDir, config, { op, userId }) : { userId, variables: null, flows: [] };
    }
  } catch (error) {
    if (error instanceof NoAnswerError) return fail(`${error.message}; is it stopping? Try again once it runs or has stopped`, FAILURE_EXIT_CODE);
    return fail(error instanceof Error ? error.message : String(error), FAILURE_EXIT_CODE);
  }
  if (op === 'show') process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  else {
    const variables = Object.keys(record.variables ?? {}).length;
    process.stdout.write(
      `forgot user ${userId}: ${variables} variable${variables === 1 ? '' : 's'}, ${record.flows.length} unfinished flow${record.flows.length === 1 ? '' : 's'}\n`,
    );
  }
  return OK_EXIT_CODE;
}

/**
 * The Redis store is shared and every write to it is one atomic script: the command reads and forgets there
 * directly, whether replicas run or not (a replica's next commit for the user starts from nothing).
 */
async function withRedisStore(store: RedisStoreConfig, botId: number, request: StateRequest): Promise<UserRecord> {
  // Loaded only for a Redis store, like the service does.
  const { openRedisStateStore } = await import('../../store/redis/open-redis-store.js');
  let ledger;
  try {
    ledger = await openRedisStateStore(store, botId, createLogger({ level: 'silent' }));
  } catch (error) {
    throw new Error(`${(error as Error).message}; check store (HEARSAY_STORE) and the store password`, { cause: error });
  }
  try {
    return request.op === 'show' ? await ledger.userRecord(request.userId) : await ledger.forgetUser(request.userId);
  } finally {
    await ledger.close();
  }
}

/** Works on the journal itself when no instance runs (under its lock), else asks the running one. */
async function withStore(stateDir: string, config: ServiceConfig, request: StateRequest): Promise<UserRecord> {
  let lock: InstanceLock;
  try {
    lock = InstanceLock.acquire(stateDir, `hearsay state ${request.op}`);
  } catch (error) {
    if (!(error instanceof InstanceLockedError)) throw error;
    const response = await askRunningInstance(stateDir, request);
    if (!response.ok) throw new Error(`the running instance could not do it: ${response.error}`);
    return response.state as UserRecord;
  }
  try {
    const journal = UpdateJournal.open({ dir: stateDir, logger: createLogger({ level: 'silent' }), maintenance: true, state: config.state });
    try {
      return request.op === 'show' ? journal.userRecord(request.userId) : await journal.forgetUser(request.userId);
    } finally {
      await journal.close();
    }
  } finally {
    lock.release();
  }
}
