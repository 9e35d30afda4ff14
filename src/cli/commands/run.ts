// `hearsay run`: load the configuration (file < environment < flags), start the service, and stop it
// gracefully on SIGINT/SIGTERM. Wrong settings exit 2 before anything starts; SIGHUP reloads the rules.
import { Command } from 'commander';
import { ConfigError, loadConfig } from '../../config/index.js';
import type { ServiceConfig } from '../../config/types.js';
import { isHearsayError } from '../../errors/hearsay-error.js';
import type { Logger } from '../../log/logger.js';
import { processSecrets } from '../../log/secrets.js';
import { startService, type RunningService } from '../../service/start.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE } from '../../errors/exit-codes.js';
import { reportFailure } from '../failure-output.js';
import { liftYoungGenerationCap } from '../memory-v8-flags.js';
import { addSettingOptions, serviceLogger, settingFlagValues } from '../setting-options.js';

export function runCommand(): Command {
  const command = new Command('run')
    .description('run the bot: answer messages by long polling or by webhook')
    .option('--config <file>', 'config file (default: hearsay.yaml in the working directory, if present)');
  const settingFlags = addSettingOptions(command);
  command.addHelpText(
    'after',
    '\nThe token comes from BOT_TOKEN or BOT_TOKEN_FILE. Every setting also has an environment variable;\nsee docs/configuration.md. Exit codes: 0 stopped cleanly, 1 failed, 2 wrong setting.',
  );
  command.action(async (options: Record<string, unknown>) => {
    const flags = settingFlagValues(settingFlags, options);
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
    return reportFailure('run', error);
  }
  const logger = serviceLogger(config);
  if (config.store.kind === 'redis' && config.mode === 'webhook') liftYoungGenerationCap();

  let service: RunningService;
  try {
    service = await startService(config, { logger });
  } catch (error) {
    if (!isHearsayError(error)) throw error;
    return reportFailure('run', error);
  }
  // Signal handlers first: a supervisor may send SIGTERM the moment it reads the ready line, and without a
  // handler that signal would kill the process before its state is written.
  const ended = waitForEnd(service, logger);
  logger.info({ mode: service.mode, bot: service.botUsername, ...(service.serverUrl ? { server: service.serverUrl } : {}) }, 'hearsay is running');
  return ended;
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
        // A known ingress failure (409, 401) is the operator's to fix, not a bug: its message and code, no stack.
        if (isHearsayError(error)) {
          exitCode = reportFailure('run', error);
          logger.error({ failure: error.label, code: error.code, reason: error.message }, 'ingress failed');
        } else {
          process.stderr.write(`hearsay run: ${processSecrets.scrub(error instanceof Error ? error.message : String(error))}\n`);
          logger.error({ err: error }, 'ingress failed');
          exitCode = FAILURE_EXIT_CODE;
        }
        void finish('ingress failed');
      },
    );
  });
}
