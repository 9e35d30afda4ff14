// The one redaction for everything the CLI prints: stdout and stderr writes pass through the process-wide
// secret registry, so no command, library or forgotten error path can print the token or webhook secret.
import { processSecrets, type Secrets } from '../log/secrets.js';

type Write = typeof process.stdout.write;

function redacting(stream: NodeJS.WriteStream, secrets: Secrets): void {
  const original = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : null;
    return original(text === null ? chunk : secrets.scrub(text), ...rest);
  };
  stream.write = write as Write;
}

let installed = false;

/** Makes every later write to stdout and stderr redacted (once per process). */
export function redactProcessOutput(secrets: Secrets = processSecrets): void {
  if (installed) return;
  installed = true;
  redacting(process.stdout, secrets);
  redacting(process.stderr, secrets);
}
