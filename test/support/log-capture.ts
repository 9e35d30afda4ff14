// Log destinations that keep what the project's logger writes, for tests that read the log back.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log/logger.js';

/** A destination that keeps every chunk written to it (the logger writes one JSON line a chunk) in `lines`. */
export function lineCapture(): { destination: Writable; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { destination, lines };
}

/** A destination that keeps every JSON line written to it, parsed, in `lines`. */
export function recordCapture(): { destination: Writable; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { destination, lines };
}

/** A debug-level logger whose lines are kept in `lines`. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const { destination, lines } = lineCapture();
  return { logger: createLogger({ level: 'debug', destination }), lines };
}
