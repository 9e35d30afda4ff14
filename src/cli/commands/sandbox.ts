// `hearsay sandbox`: runs the local messaging service until SIGINT/SIGTERM, then closes it and exits 0.
import { Command, InvalidArgumentError, Option } from 'commander';
import { createLogger, LOG_LEVELS } from '../../log/logger.js';
import { listenFailureMessage, SANDBOX_LISTEN_HINTS } from '../../ops/listen-failure.js';
import { hostForUrl } from '../../demo/free-port.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE } from '../../errors/exit-codes.js';
import { hearsayInvocationIn } from '../invocation.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port > 65_535) {
    throw new InvalidArgumentError('It must be an integer from 0 to 65535 (0 picks a free port).');
  }
  return port;
}

export function sandboxCommand(): Command {
  return new Command('sandbox')
    .description('run the local messaging service (a stand-in for the Bot API, with the BotMaker assistant)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .addOption(new Option('--port <port>', 'port to listen on').default(8081).argParser(parsePort))
    .addOption(new Option('--log-level <level>', 'log level').choices([...LOG_LEVELS]).default('info'))
    .action(async (options: { host: string; port: number; logLevel: string }) => {
      const logger = createLogger({ level: options.logLevel, name: 'sandbox' });
      // Loaded here, not at the top: other commands must not carry the sandbox in memory.
      const [{ createSandbox }, { webChatPlugin }] = await Promise.all([import('../../sandbox/index.js'), import('../../sandbox/web/plugin.js')]);
      const sandbox = await createSandbox({ logger, hearsayCommand: hearsayInvocationIn });
      await sandbox.app.register(webChatPlugin, { store: sandbox.store, onMessage: sandbox.onMessage });
      let baseUrl: string;
      try {
        baseUrl = await sandbox.listen({ host: options.host, port: options.port });
      } catch (error) {
        process.stderr.write(`hearsay sandbox: ${listenFailureMessage(`${hostForUrl(options.host)}:${options.port}`, error, SANDBOX_LISTEN_HINTS)}\n`);
        await sandbox.close();
        process.exitCode = FAILURE_EXIT_CODE;
        return;
      }
      logger.info({ baseUrl }, `sandbox listening on ${baseUrl}`);
      logger.info({ page: `${baseUrl}/` }, `chat page: open ${baseUrl}/ and create a bot by sending /newbot to BotMaker`);
      logger.info(
        `or from a shell: curl -s -X POST ${baseUrl}/client/send -H 'content-type: application/json' ` +
          `-d '{"user":{"id":1001,"first_name":"Ann"},"to":"BotMaker","text":"/newbot"}' ` +
          `then read the answers with curl -s '${baseUrl}/client/messages?user=1001&with=BotMaker' (see docs/sandbox.md)`,
      );
      await new Promise<void>((resolve) => {
        const stop = (signal: NodeJS.Signals): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          logger.info({ signal }, 'sandbox stopping');
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await sandbox.close();
      logger.info('sandbox stopped');
      process.exitCode = OK_EXIT_CODE;
    });
}
