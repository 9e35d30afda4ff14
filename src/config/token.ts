// Reads the bot token from BOT_TOKEN or the file named by BOT_TOKEN_FILE (never from the config file)
// and registers it as a secret before anything could print it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Secrets } from '../log/secrets.js';
import { ConfigProblem } from './errors.js';

/** Where the token was read from, so that a rejected token can be traced to the right variable. */
export type TokenSource = 'BOT_TOKEN' | 'BOT_TOKEN_FILE';

export function readToken(env: NodeJS.ProcessEnv, cwd: string, secrets: Secrets): { token: string; source: TokenSource } | ConfigProblem {
  const direct = env.BOT_TOKEN?.trim() || undefined;
  const file = env.BOT_TOKEN_FILE?.trim() || undefined;
  if (direct) secrets.add(direct);
  if (direct && file) {
    return new ConfigProblem('token', { kind: 'env', name: 'BOT_TOKEN_FILE' }, 'set either BOT_TOKEN or BOT_TOKEN_FILE, not both');
  }
  let token = direct;
  let source: TokenSource = 'BOT_TOKEN';
  if (!token && file) {
    source = 'BOT_TOKEN_FILE';
    try {
      token = readFileSync(resolve(cwd, file), 'utf8').trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      return new ConfigProblem('token', { kind: 'env', name: 'BOT_TOKEN_FILE' }, `cannot read the token file ${file} (${code})`);
    }
    secrets.add(token);
    if (!token) return new ConfigProblem('token', { kind: 'env', name: 'BOT_TOKEN_FILE' }, `the token file ${file} is empty`);
  }
  if (!token) {
    return new ConfigProblem(
      'token',
      { kind: 'default' },
      'no bot token: set BOT_TOKEN to the token the bot-creation assistant gave you, or BOT_TOKEN_FILE to a file containing it',
    );
  }
  // Checked without echoing the value: a token with spaces or slashes would corrupt the request URL.
  if (/[\s/?#%]/.test(token)) {
    return new ConfigProblem('token', { kind: 'env', name: source }, 'the token contains spaces or URL characters (/ ? # %); copy it again exactly');
  }
  // The shape the service issues, `<bot id>:<secret>`: anything else would only fail later, at the first call.
  if (!/^\d+:[A-Za-z0-9_-]+$/.test(token)) {
    return new ConfigProblem(
      'token',
      { kind: 'env', name: source },
      'the token is not shaped like a bot token (digits, a colon, then letters, digits, _ or -, such as 123456:ABC-DEF1234ghIkl); copy it again exactly',
    );
  }
  return { token, source };
}
