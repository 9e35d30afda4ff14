// The bot token's shape is checked when the settings are read: a token without its `<bot id>:` part is a
// wrong setting (exit 2, before any request), not a failure at the first call (exit 1).
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { readToken } from '../../src/config/token.js';
import { ConfigProblem } from '../../src/config/errors.js';
import { Secrets } from '../../src/log/secrets.js';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;

describe('the token shape', () => {
  it('refuses a token without a colon, or with an empty half, without echoing it', () => {
    for (const token of [
      'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      '987654:',
      ':AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'abc:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const result = readToken({ BOT_TOKEN: token }, tmpdir(), new Secrets());
      expect(result).toBeInstanceOf(ConfigProblem);
      expect((result as ConfigProblem).format()).toMatch(/not shaped like a bot token/);
      expect((result as ConfigProblem).format()).not.toContain(token);
    }
    expect(readToken({ BOT_TOKEN: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-_' }, tmpdir(), new Secrets())).toMatchObject({
      token: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-_',
    });
  });

  it('hearsay run exits 2 at once, without calling the service', () => {
    // An address where nothing listens: a late failure would be "cannot reach", exit 1.
    const result = spawnSync(process.execPath, [cli, 'run'], {
      env: { PATH: process.env.PATH ?? '', BOT_TOKEN: 'NoColonHereAtAllJustLettersAndDigits123', BASE_URL: 'http://127.0.0.1:9' },
      encoding: 'utf8',
      cwd: tmpdir(),
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/hearsay run: environment variable BOT_TOKEN: the token is not shaped like a bot token/);
    // The last line names the registered code the operations guide explains.
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe('hearsay run: error code HS_ERR_CONFIG_INVALID (docs/operations.md, Error codes)');
    expect(result.stderr).not.toContain('NoColonHereAtAll');
  });
});
