// Unmatched-message analytics through the real service against the sandbox: hits per rule and the
// unmatched counter on /metrics' registry, the per-update log line that says `unmatched`, and the text of
// such messages logged only with log.unmatched (and redacted when it holds the token).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { writeRules } from '../e2e/run-process.js';
import { createBotViaAssistant, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';
import { recordCapture } from '../support/log-capture.js';

const RULES = [
  'rules:',
  '  - id: hours',
  '    keywords: [hours, open]',
  '    reply: "9 to 5"',
  '  - id: help',
  '    fallback: true',
  '    reply: "Sorry?"',
  '',
].join('\n');

describe('unmatched-message analytics', () => {
  let sandbox: StartedSandbox;
  let bot: { token: string; username: string };
  const dirs: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 8100, name: 'Shop', username: 'unmatched_shop_bot' });
  });
  afterAll(async () => {
    await sandbox.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** Runs the service at info level with the given environment; returns it and its parsed log lines. */
  async function run(env: Record<string, string>): Promise<{ service: RunningService; lines: Array<Record<string, unknown>> }> {
    const rules = await writeRules(RULES);
    const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-unmatched-'));
    dirs.push(rules.dir, dataDir);
    const secrets = new Secrets();
    const base = { BOT_TOKEN: bot.token, BASE_URL: sandbox.baseUrl, HEARSAY_RULES: rules.dir, HEARSAY_DATA_DIR: dataDir, HEARSAY_POLLING_TIMEOUT: '1' };
    const config = await loadConfig({ cwd: rules.dir, env: { ...base, ...env }, secrets });
    const { destination, lines } = recordCapture();
    const service = await startService(config, { logger: createLogger({ level: 'info', destination, secrets, pretty: false }) });
    return { service, lines };
  }

  /** The user sends each text and waits for its answer (all of them get one: a rule or the fallback). */
  async function converse(userId: number, texts: string[]): Promise<void> {
    for (const text of texts) {
      const sent = await sendAsUser(sandbox.baseUrl, userId, bot.username, text);
      await waitForBotReplies(sandbox.baseUrl, { userId, bot: bot.username, after: sent.message_id });
    }
  }

  it('counts hits per rule and unmatched messages, and logs their text only with log.unmatched (token redacted)', async () => {
    const { service, lines } = await run({ HEARSAY_LOG_UNMATCHED: 'true' });
    try {
      await converse(8101, ['When are you open?', 'Where is my order?', `my token is ${bot.token}`, 'hours', 'where is  my ORDER']);
      // The line is written once the reply went out: wait for it, not for time.
      await expect.poll(() => lines.filter((line) => line.msg === 'update handled').length).toBe(5);
      const metrics = await service.metrics.render();
      expect(metrics.body).toContain('hearsay_rule_hits_total{rule="hours"} 2');
      expect(metrics.body).toContain('hearsay_rule_hits_total{rule="help"} 3');
      expect(metrics.body).toContain('hearsay_unmatched_total{outcome="fallback"} 3');
      expect(metrics.body).toContain('hearsay_unmatched_total{outcome="none"} 0');
      const handled = lines.filter((line) => line.msg === 'update handled');
      expect(handled.map((line) => [line.rule, line.unmatched ?? null, line.text ?? null])).toEqual([
        ['hours', null, null],
        ['help', 'fallback', 'Where is my order?'],
        ['help', 'fallback', 'my token is <redacted>'],
        ['hours', null, null],
        ['help', 'fallback', 'where is  my ORDER'],
      ]);
      expect(JSON.stringify(lines)).not.toContain(bot.token.split(':')[1]);
    } finally {
      await service.stop();
    }
  });

  it('without log.unmatched the line still says unmatched, but never what the user wrote', async () => {
    const { service, lines } = await run({});
    try {
      await converse(8102, ['Where is my order?']);
      await expect.poll(() => lines.filter((line) => line.msg === 'update handled').length).toBe(1);
      const line = lines.find((entry) => entry.msg === 'update handled');
      expect(line).toMatchObject({ rule: 'help', unmatched: 'fallback' });
      expect(line).not.toHaveProperty('text');
      expect(JSON.stringify(lines)).not.toContain('my order');
    } finally {
      await service.stop();
    }
  });
});

describe('recordDecision', () => {
  const chat = { id: 5, type: 'private' as const, first_name: 'Ada' };
  const message = (text: string) => ({ kind: 'message' as const, updateId: 1, chat, message: { message_id: 1, date: 1, chat, text } });

  it('without a fallback, a message nothing answered is unmatched "none"; a press is never unmatched', async () => {
    const { compileRules } = await import('../../src/engine/compile.js');
    const { ServiceMetrics } = await import('../../src/ops/metrics.js');
    const { recordDecision } = await import('../../src/ops/unmatched.js');
    const ruleSet = compileRules([{ id: 'hi', text: 'hi', reply: 'hello' }]);
    const metrics = new ServiceMetrics({ processMetrics: false });
    const options = { logUnmatchedText: true, debug: false };
    expect(recordDecision(message('hi'), { ruleId: 'hi' }, ruleSet, metrics, options)).toEqual({});
    expect(recordDecision(message('Huh?'), { ruleId: null }, ruleSet, metrics, options)).toEqual({ unmatched: 'none', text: 'Huh?' });
    const press = { kind: 'callback_query' as const, updateId: 2, id: 'q', from: { id: 5, is_bot: false, first_name: 'Ada' }, data: 'x' };
    expect(recordDecision(press, { ruleId: null }, ruleSet, metrics, options)).toEqual({});
    const body = (await metrics.render()).body;
    expect(body).toContain('hearsay_unmatched_total{outcome="none"} 1');
    expect(body).toContain('hearsay_unmatched_total{outcome="fallback"} 0');
    expect(body).toContain('hearsay_rule_hits_total{rule="hi"} 1');
  });

  it('a contested keyword match answered with suggestions is logged with the rule that matched (when_contested)', async () => {
    const { compileRules } = await import('../../src/engine/compile.js');
    const { ServiceMetrics } = await import('../../src/ops/metrics.js');
    const { recordDecision } = await import('../../src/ops/unmatched.js');
    const ruleSet = compileRules([{ id: 'store', keywords: ['store'], reply: 'Main Street 1' }]);
    const metrics = new ServiceMetrics({ processMetrics: false });
    const decision = { ruleId: null, suggested: ['returns', 'store'], contested: 'store' };
    expect(recordDecision(message('refund at the store?'), decision, ruleSet, metrics, { logUnmatchedText: false, debug: false })).toEqual({
      unmatched: 'suggested',
      suggested: ['returns', 'store'],
      contested: 'store',
    });
    expect((await metrics.render()).body).toContain('hearsay_unmatched_total{outcome="suggested"} 1');
  });
});
