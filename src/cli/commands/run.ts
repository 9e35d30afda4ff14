// `hearsay run`: load the configuration (file < environment < flags), start the service, and stop it
// gracefully on SIGINT/SIGTERM. Wrong settings exit 2 before anything starts; SIGHUP reloads the rules.
import { Command, Option } from 'commander';
import { ConfigError, loadConfig } from '../../config/index.js';
import { SETTINGS, type SettingKind } from '../../config/settings.js';
import type { ServiceConfig } from '../../config/types.js';
import { createLogger, type Logger } from '../../log/logger.js';
import { processSecrets } from '../../log/secrets.js';
import { StartupError } from '../../service/errors.js';
import { startService, type RunningService } from '../../service/start.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE, USAGE_EXIT_CODE } from '../exit-codes.js';

const PLACEHOLDERS: Partial<Record<SettingKind, string>> = { listen: 'host:port', path: 'path', url: 'url', integer: 'n', number: 'n' };

export function runCommand(): Command {
  const command = new Command('run')
    .description('run the bot: answer messages by long polling or by webhook')
    .option('--config <file>', 'config file (default: hearsay.yaml in the working directory, if present)');
  const flagKeys = new Map<string, string>();
  for (const spec of SETTINGS) {
    if (!spec.flag) continue;
    const option =
      spec.kind === 'boolean'
        ? new Option(spec.flag, spec.meaning.replace(/`/g, ''))
        : new Option(`${spec.flag} <${PLACEHOLDERS[spec.kind] ?? 'value'}>`, spec.meaning.replace(/`/g, ''));
    command.addOption(option);
    flagKeys.set(option.attributeName(), spec.key);
  }
  command.addHelpText(
    'after',
    '\nThe token comes from BOT_TOKEN or BOT_TOKEN_FILE. Every setting also has an environment variable;\nsee docs/configuration.md. Exit codes: 0 stopped cleanly, 1 failed, 2 wrong setting.',
  );
  command.action(async (options: Record<string, string | boolean | undefined>) => {
    const flags: Record<string, string | boolean | undefined> = {};
    for (const [attribute, key] of flagKeys) flags[key] = options[attribute];
    process.exitCode = await run(typeof options.config === 'string' ? options.config : undefined, flags);
  });
  return command;
}

async function run(configPath: string | undefined, flags: Record<string, string | boolean | undefined>): Promise<number> {
  let config: ServiceConfig;
  try {
    config = await loadConfig({ ...(configPath !== undefined ? { configPath } : {}), flags, secrets: processSecrets });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) process.stderr.write(`hearsay run: ${processSecrets.scrub(problem.format())}\n`);
    return USAGE_EXIT_CODE;
  }
  const logger = createLogger({
    level: config.log.level,
    ...(config.log.format === 'auto' ? {} : { pretty: config.log.format === 'pretty' }),
    secrets: processSecrets,
  });

  let service: RunningService;
  try {
    service = await startService(config, { logger });
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    for (const line of error.details) process.stderr.write(`${processSecrets.scrub(line)}\n`);
    process.stderr.write(`hearsay run: ${processSecrets.scrub(error.message)}\n`);
    return FAILURE_EXIT_CODE;
  }
  logger.info({ mode: service.mode, bot: service.botUsername, ...(service.serverUrl ? { server: service.serverUrl } : {}) }, 'hearsay is running');
  return waitForEnd(service, logger);
}

function waitForEnd(service: RunningService, logger: Logger): Promise<number> {
  return new Promise<number>((resolve) => {
    let exitCode = OK_EXIT_CODE;
    const finish = async (reason: string) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onHangup);
      // A second signal while stopping ends at once.
      const force = () => process.exit(FAILURE_EXIT_CODE);
      process.once('SIGINT', force);
      process.once('SIGTERM', force);
      logger.info({ reason }, 'shutting down');
      await service.stop();
      process.off('SIGINT', force);
      process.off('SIGTERM', force);
      // Something left open must not keep the process alive after a clean stop.
      setTimeout(() => process.exit(exitCode), 3000).unref();
      resolve(exitCode);
    };
    const onSignal = (signal: NodeJS.Signals) => void finish(signal);
    const onHangup = () => {
      logger.info('SIGHUP: reloading the rules');
      void service.reloadRules();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onHangup);
    service.done.then(
      () => undefined,
      (error: unknown) => {
        process.stderr.write(`hearsay run: ${processSecrets.scrub(error instanceof Error ? error.message : String(error))}\n`);
        logger.error({ err: error }, 'ingress failed');
        exitCode = FAILURE_EXIT_CODE;
        void finish('ingress failed');
      },
    );
  });
}
