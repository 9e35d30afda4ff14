// The settings' command-line flags: what an operator types reaches the configuration, and a boolean
// setting switched on in the environment can be switched off again on the command line.
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { tmpdir } from 'node:os';
import { loadConfig, ConfigError } from '../../src/config/index.js';
import { Secrets } from '../../src/log/secrets.js';
import { addSettingOptions, settingFlagValues } from '../../src/cli/setting-options.js';

const env = { BOT_TOKEN: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };

async function configFrom(args: string[], extraEnv: Record<string, string> = {}) {
  const command = new Command('run').exitOverride();
  const flags = addSettingOptions(command);
  command.parse(args, { from: 'user' });
  return loadConfig({ cwd: tmpdir(), env: { ...env, ...extraEnv }, flags: settingFlagValues(flags, command.opts()), secrets: new Secrets() });
}

describe('setting flags', () => {
  it('turns a boolean setting on alone, and off with an explicit false', async () => {
    expect((await configFrom([])).rateLimits).not.toBeNull();
    expect((await configFrom(['--rate-limits-enabled', 'false'])).rateLimits).toBeNull();
    expect((await configFrom(['--rate-limits-enabled'], { HEARSAY_RATE_LIMITS_ENABLED: 'false' })).rateLimits).not.toBeNull();
  });

  it('passes values through and names the flag when one is wrong', async () => {
    expect((await configFrom(['--mode', 'webhook', '--webhook-url', 'https://bot.example.com'])).mode).toBe('webhook');
    const error = await configFrom(['--rate-limits-enabled', 'maybe']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.format()).join('\n')).toMatch(/--rate-limits-enabled.*true or false.*maybe/);
  });

  it("shows every flag's environment variable and default in the help, without filling the default in", () => {
    const command = new Command('run').exitOverride();
    const flags = addSettingOptions(command);
    const help = command.helpInformation();
    expect(help).toMatch(/--polling-timeout <n> +Long-poll timeout in seconds \(0–50\)\. \[env HEARSAY_POLLING_TIMEOUT, default 30\]/);
    expect(help).toMatch(/--webhook-url <url> +.*\[env HEARSAY_WEBHOOK_URL\]/);
    command.parse([], { from: 'user' });
    expect(settingFlagValues(flags, command.opts())['polling.timeout']).toBeUndefined();
  });
});
