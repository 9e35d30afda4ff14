// `hearsay start` (what `npm start` runs): with BOT_TOKEN (or BOT_TOKEN_FILE) set it is exactly `hearsay
// run`; without one it runs the embedded demo (sandbox + chat page + demo bot + engine) until SIGINT/SIGTERM.
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError, type ServiceConfig } from '../../config/index.js';
import { loadDemoSettings } from '../../demo/demo-config.js';
import type { EmbeddedDemo } from '../../demo/embedded-demo.js';
import { HearsayError } from '../../errors/hearsay-error.js';
import type { Logger } from '../../log/logger.js';
import { processSecrets } from '../../log/secrets.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE } from '../../errors/exit-codes.js';
import { reportFailure } from '../failure-output.js';
import { addSettingOptions, serviceLogger, settingFlagValues, type SettingFlag } from '../setting-options.js';
import { hearsayInvocation, hearsayInvocationIn } from '../invocation.js';
import { runCommand } from './run.js';

type Options = Record<string, string | number | boolean | undefined>;

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('It must be an integer from 0 to 65535 (0 picks a free port).');
  return port;
}

export function startCommand(): Command {
  const command = new Command('start')
    .description('run the demo: the sandbox with its chat page, a demo bot and the engine (without BOT_TOKEN); with BOT_TOKEN, the same as run')
    .option('--host <host>', 'address the sandbox and its chat page listen on (demo only)', '127.0.0.1')
    .addOption(new Option('--port <port>', 'port of the sandbox and its chat page, 0 picks a free one (demo only)').default(8081).argParser(parsePort))
    .option('--config <file>', 'config file (default: hearsay.yaml in the working directory, if present)');
  const flagKeys = addSettingOptions(command);
  command.addHelpText(
    'after',
    '\nWithout a token, the demo bot is created through the sandbox assistant and answered with the rules in\n' +
      '--rules (default rules/); open the logged address in a browser to chat with it. In webhook mode the\n' +
      'sandbox posts to a local webhook (--webhook-listen, port 0 picks a free one). See docs/web-chat.md.',
  );
  command.action(async (options: Options) => {
    const flags = settingFlagValues(flagKeys, options);
    const configPath = typeof options.config === 'string' ? options.config : undefined;
    if (process.env.BOT_TOKEN?.trim() || process.env.BOT_TOKEN_FILE?.trim()) {
      const variable = process.env.BOT_TOKEN?.trim() ? 'BOT_TOKEN' : 'BOT_TOKEN_FILE';
      process.stderr.write(
        `hearsay start: ${variable} is set, so this runs that bot (the same as 'hearsay run'), not the demo. ` +
          `For the demo, leave it unset: env -u BOT_TOKEN -u BOT_TOKEN_FILE ${hearsayInvocation()} start\n`,
      );
      process.exitCode = await runInstead(options, flagKeys, configPath);
      return;
    }
    process.exitCode = await runDemo({ host: String(options.host), port: Number(options.port), configPath, flags });
  });
  return command;
}

/** With a token, `start` is `run`: the same options are handed over, --host and --port do not apply. */
async function runInstead(options: Options, flagKeys: Map<string, SettingFlag>, configPath: string | undefined): Promise<number> {
  const args: string[] = configPath !== undefined ? ['--config', configPath] : [];
  for (const [attribute, { flag }] of flagKeys) {
    const value = options[attribute];
    if (value === true) args.push(flag);
    else if (typeof value === 'string') args.push(flag, value);
  }
  await runCommand().exitOverride().parseAsync(args, { from: 'user' });
  return typeof process.exitCode === 'number' ? process.exitCode : OK_EXIT_CODE;
}

interface DemoArguments {
  host: string;
  port: number;
  configPath: string | undefined;
  flags: Record<string, string | boolean | undefined>;
}

async function runDemo({ host, port, configPath, flags }: DemoArguments): Promise<number> {
  const configOptions = { ...(configPath !== undefined ? { configPath } : {}), flags, secrets: processSecrets };
  let settings: ServiceConfig;
  try {
    settings = await loadDemoSettings(configOptions);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return reportFailure('start', error);
  }
  const logger = serviceLogger(settings);

  let demo: EmbeddedDemo;
  try {
    // Loaded here, not at the top: `hearsay run` must not carry the sandbox and its web chat in memory.
    const { startEmbeddedDemo } = await import('../../demo/embedded-demo.js');
    demo = await startEmbeddedDemo({ ...configOptions, host, port, settings, logger, hearsayCommand: hearsayInvocationIn });
  } catch (error) {
    if (error instanceof HearsayError) return reportFailure('start', error);
    throw error;
  }
  logger.info(
    { page: demo.pageUrl, bot: `@${demo.botUsername}`, mode: demo.service.mode, sandbox: demo.sandboxUrl, rules: demo.rulesPath },
    `Open ${demo.pageUrl} and talk to @${demo.botUsername}`,
  );
  return waitForEnd(demo, logger);
}

function waitForEnd(demo: EmbeddedDemo, logger: Logger): Promise<number> {
  return new Promise<number>((resolve) => {
    let exitCode = OK_EXIT_CODE;
    const finish = async (reason: string): Promise<void> => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onHangup);
      // A second signal while stopping ends at once.
      const force = (): never => process.exit(FAILURE_EXIT_CODE);
      process.once('SIGINT', force);
      process.once('SIGTERM', force);
      logger.info({ reason }, 'shutting down the demo');
      await demo.stop();
      process.off('SIGINT', force);
      process.off('SIGTERM', force);
      logger.info('demo stopped');
      // Something left open must not keep the process alive after a clean stop.
      setTimeout(() => process.exit(exitCode), 3000).unref();
      resolve(exitCode);
    };
    const onSignal = (signal: NodeJS.Signals): void => void finish(signal);
    const onHangup = (): void => {
      logger.info('SIGHUP: reloading the rules');
      void demo.service.reloadRules();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onHangup);
    demo.service.done.then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof HearsayError) exitCode = reportFailure('start', error);
        else {
          process.stderr.write(`hearsay start: ${processSecrets.scrub(error instanceof Error ? error.message : String(error))}\n`);
          exitCode = FAILURE_EXIT_CODE;
        }
        void finish('ingress failed');
      },
    );
  });
}
