// "When unsure, ask" through the real service against the sandbox: a message no rule matches gets the
// question with buttons, a press answers as the rule would, the metrics count the offer and the press, the
// log line says which suggestion was taken (with what the user wrote, under log.unmatched), and the built
// `hearsay report --suggestions` turns that log into examples to paste.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InlineKeyboardMarkup } from '@grammyjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService } from '../../src/service/start.js';
import { writeRules } from '../e2e/run-process.js';
import { HEARSAY_BIN } from '../support/cli.js';
import { recordCapture } from '../support/log-capture.js';
import { createBotViaAssistant, pressButton, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';

const RULES = `
suggest: { when_unmatched: true, max: 3, none: fallback }
rules:
  - id: shipping
    keywords: ["shipping costs"]
    label: "Shipping costs"
    examples: ["how much is shipping"]
    reply: "Shipping is 4.90 (you wrote: {{text}})"
  - id: returns
    keywords: [returns]
    examples: ["how do I return an item"]
    reply: "Returns are free."
  - id: help
    fallback: true
    reply: "Sorry?"
`;

describe('suggestions in the running service', () => {
  let sandbox: StartedSandbox;
  let bot: { token: string; username: string };
  const dirs: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 8300, name: 'Shop', username: 'suggesting_shop_bot' });
  });
  afterAll(async () => {
    await sandbox.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('offers, answers a press as the rule, counts both, and the report prints the phrasing as an example', async () => {
    const rules = await writeRules(RULES);
    const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-suggest-'));
    dirs.push(rules.dir, dataDir);
    const secrets = new Secrets();
    const env = {
      BOT_TOKEN: bot.token,
      BASE_URL: sandbox.baseUrl,
      HEARSAY_RULES: rules.dir,
      HEARSAY_DATA_DIR: dataDir,
      HEARSAY_POLLING_TIMEOUT: '1',
      HEARSAY_LOG_UNMATCHED: 'true',
    };
    const config = await loadConfig({ cwd: rules.dir, env, secrets });
    const { destination, lines } = recordCapture();
    const service = await startService(config, { logger: createLogger({ level: 'info', destination, secrets, pretty: false }) });
    try {
      const user = 8301;
      const sent = await sendAsUser(sandbox.baseUrl, user, bot.username, 'what does shipping cost');
      const [offer] = await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, after: sent.message_id });
      expect(offer!.text).toBe("I'm not sure I understood. Did you mean:");
      const keyboard = (offer!.reply_markup as InlineKeyboardMarkup).inline_keyboard.map((row) => row.map((button) => button.text));
      expect(keyboard).toEqual([['Shipping costs'], ['None of these']]);

      const pressed = await pressButton(sandbox.baseUrl, user, { messageId: offer!.message_id, text: 'Shipping costs', to: bot.username, wait: 5 });
      expect(pressed.answer?.status).toBe('answered');
      const [answer] = await waitForBotReplies(sandbox.baseUrl, { userId: user, bot: bot.username, after: offer!.message_id });
      expect(answer!.text).toBe('Shipping is 4.90 (you wrote: what does shipping cost)');

      await expect.poll(() => lines.filter((line) => line.msg === 'update handled').length).toBe(2);
      const handled = lines.filter((line) => line.msg === 'update handled');
      expect(handled.map((line) => [line.rule, line.unmatched ?? null, line.suggested ?? null, line.suggestion_taken ?? null, line.text])).toEqual([
        [null, 'suggested', ['shipping'], null, 'what does shipping cost'],
        ['shipping', null, null, 'shipping', 'what does shipping cost'],
      ]);
      const metrics = (await service.metrics.render()).body;
      expect(metrics).toContain('hearsay_unmatched_total{outcome="suggested"} 1');
      expect(metrics).toContain('hearsay_suggestions_total{outcome="taken",rule="shipping"} 1');
      expect(metrics).toContain('hearsay_rule_hits_total{rule="shipping"} 1');

      const log = lines.map((line) => JSON.stringify(line)).join('\n');
      const report = spawnSync('node', [HEARSAY_BIN, 'report', '--suggestions'], { input: log, encoding: 'utf8' });
      expect(report.status).toBe(0);
      expect(report.stdout).toBe(
        [
          "# standard input: 1 suggestions taken, for 1 rules; add these phrasings to each rule's examples",
          '- id: shipping',
          '  examples:',
          '    - "what does shipping cost"  # taken 1 time',
          '',
        ].join('\n'),
      );
      const table = spawnSync('node', [HEARSAY_BIN, 'report'], { input: log, encoding: 'utf8' });
      expect(table.stdout).toContain('2 updates handled, 1 unmatched (1 with their text)');
    } finally {
      await service.stop();
    }
  });
});
