// `hearsay run` failing before it serves: wrong settings exit 2, a rejected token or broken rules exit 1,
// and neither prints the token.
import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { createBotViaAssistant } from '../support/sandbox-harness.js';
import { freePort, startRun, versionedRules, writeRules } from './run-process.js';
import { sandboxAndRuns } from './sandbox-and-runs.js';

const FAKE_TOKEN = '123456789:AAHfakefakefakefakefakefakefakefake1';

describe('hearsay run refuses to start', () => {
  const { sandbox } = sandboxAndRuns();

  it('exits 2 on a wrong setting, naming the setting and where it came from', async () => {
    const rules = await writeRules(versionedRules('v1'));
    await writeFile(`${rules.dir}/hearsay.yaml`, 'polling:\n  timeout: 120\n');
    const run = startRun({ cwd: rules.dir, env: { BOT_TOKEN: FAKE_TOKEN, HEARSAY_MODE: 'smoke-signals' }, args: ['--log-level', 'chatty'] });
    expect(await run.exited).toBe(2);
    const output = run.lines.join('\n');
    expect(output).toContain('hearsay.yaml:2:12: polling.timeout must be at most 50 (got 120)');
    expect(output).toContain("environment variable HEARSAY_MODE: ingress.mode must be one of: polling, webhook (got 'smoke-signals')");
    expect(output).toContain("option --log-level: log.level must be one of: fatal, error, warn, info, debug, trace, silent (got 'chatty')");
    expect(output).not.toContain(FAKE_TOKEN);
  });

  it('exits 2 when there is no token or the named config file is missing', async () => {
    const noToken = startRun({ env: {} });
    expect(await noToken.exited).toBe(2);
    expect(noToken.lines.join('\n')).toMatch(/no bot token: set BOT_TOKEN/);
    const missing = startRun({ env: { BOT_TOKEN: FAKE_TOKEN }, args: ['--config', '/nonexistent/hearsay.yaml'] });
    expect(await missing.exited).toBe(2);
    expect(missing.lines.join('\n')).toContain('option --config: /nonexistent/hearsay.yaml: file not found');
  });

  it('exits 1 with a clear message when the service rejects the token, without printing it', async () => {
    const rules = await writeRules(versionedRules('v1'));
    const run = startRun({ env: { BOT_TOKEN: FAKE_TOKEN, BASE_URL: sandbox.baseUrl, HEARSAY_RULES: rules.dir } });
    expect(await run.exited).toBe(1);
    const output = run.lines.join('\n');
    expect(output).toContain("the token was rejected (401 Unauthorized); check BOT_TOKEN: it must be the bot's current token");
    expect(output).not.toContain(FAKE_TOKEN);
    expect(output).not.toContain(FAKE_TOKEN.split(':')[1]);

    await writeFile(`${rules.dir}/token.txt`, FAKE_TOKEN);
    const fromFile = startRun({ env: { BOT_TOKEN_FILE: `${rules.dir}/token.txt`, BASE_URL: sandbox.baseUrl, HEARSAY_RULES: rules.dir } });
    expect(await fromFile.exited).toBe(1);
    expect(fromFile.lines.join('\n')).toContain('the token was rejected (401 Unauthorized); check the file named by BOT_TOKEN_FILE');
  });

  it('exits 1 naming the setting to change when the webhook port is taken', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 4343, name: 'Busy', username: 'busy_port_bot' });
    const rules = await writeRules(versionedRules('v1'));
    const port = await freePort();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const run = startRun({
        env: {
          BOT_TOKEN: bot.token,
          BASE_URL: sandbox.baseUrl,
          HEARSAY_RULES: rules.dir,
          HEARSAY_MODE: 'webhook',
          HEARSAY_WEBHOOK_URL: `http://127.0.0.1:${port}`,
          HEARSAY_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
          HEARSAY_DATA_DIR: `${rules.dir}/data`,
        },
      });
      expect(await run.exited).toBe(1);
      expect(run.lines.join('\n')).toContain(
        `cannot listen on 127.0.0.1:${port}: the port is already in use (is another hearsay or another server still running?); stop it, or choose another port with webhook.listen (HEARSAY_WEBHOOK_LISTEN, --webhook-listen)`,
      );
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('exits 1 and prints every rule problem with its position when the rules are broken', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 4242, name: 'Broken', username: 'broken_rules_bot' });
    const rules = await writeRules('rules:\n  - id: a\n    txt: hello\n    reply: hi\n');
    const run = startRun({ env: { BOT_TOKEN: bot.token, BASE_URL: sandbox.baseUrl, HEARSAY_RULES: rules.dir } });
    expect(await run.exited).toBe(1);
    const output = run.lines.join('\n');
    expect(output).toMatch(/bot\.yaml:3:5: /);
    expect(output).toContain('have problems; nothing was started');
    expect(output).toContain('error code HS_ERR_RULES_INVALID');
    expect(output).not.toContain(bot.token);
  });
});
