// The one place that builds pino loggers: JSON lines by default, readable output on a terminal,
// and every line scrubbed of registered secrets before it is written.
import { pino, type Logger, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import { processSecrets, type Secrets } from './secrets.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level?: string;
  /** Readable output instead of JSON lines; defaults to whether stdout is a terminal. */
  pretty?: boolean;
  /** Where lines go; defaults to stdout. Tests pass a stream to read the lines back. */
  destination?: DestinationStream;
  secrets?: Secrets;
  name?: string;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = options.secrets ?? processSecrets;
  const usePretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  const destination: DestinationStream =
    options.destination ??
    (usePretty ? pretty({ sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) : pino.destination({ fd: 1, sync: true }));
  return pino(
    {
      level: options.level ?? 'info',
      ...(options.name ? { name: options.name } : {}),
      base: undefined,
      hooks: { streamWrite: (line: string) => secrets.scrub(line) },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}
