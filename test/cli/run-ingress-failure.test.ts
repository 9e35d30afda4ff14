// `hearsay run` stopping on an ingress failure the operator must fix (here: polling while a webhook is
// set): exit 1, the message says what to do, and no stack trace is logged for it.
import { describe, expect, it } from 'vitest';
import { createBotViaAssistant } from '../support/sandbox-harness.js';
import { startRun, versionedRules, writeRules } from '../e2e/run-process.js';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';

describe('hearsay run on an ingress failure', () => {
  const { sandbox } = sandboxAndRuns();

  it('exits 1 with what to do, logging the failure without a stack trace', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 4343, name: 'Hooked', username: 'hooked_cli_bot' });
    const set = await fetch(`${sandbox.baseUrl}/bot${bot.token}/setwebhook?url=${encodeURIComponent('http://127.0.0.1:9/hook')}`);
    expect(set.status).toBe(200);
    const rules = await writeRules(versionedRules('v1'));
    const run = startRun({ env: { BOT_TOKEN: bot.token, BASE_URL: sandbox.baseUrl, HEARSAY_RULES: rules.dir, HEARSAY_DATA_DIR: `${rules.dir}/data` } });
    expect(await run.exited).toBe(1);
    const output = run.lines.join('\n');
    expect(output).toContain('hearsay run: a webhook is set for this bot, so polling is refused (409 Conflict)');
    const failed = run.lines.find((line) => line.includes('"msg":"ingress failed"'));
    expect(failed).toBeDefined();
    expect(JSON.parse(failed!)).toMatchObject({ failure: 'webhook_active', code: 'HS_ERR_WEBHOOK_ACTIVE' });
    expect(output).toContain('hearsay run: error code HS_ERR_WEBHOOK_ACTIVE (docs/operations.md, Error codes)');
    expect(output).not.toMatch(/\bat \S+ \(file:/);
    expect(output).not.toContain(bot.token);
  });
});
