// startService as a library (the embedded demo will call it this way): real sandbox, in-process service.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { HearsayError } from '../../src/errors/hearsay-error.js';
import { startService } from '../../src/service/start.js';
import { createBotViaAssistant, sendAsUser } from '../support/sandbox-harness.js';
import { botRepliesTo } from './chat-checks.js';
import { startInProcess } from '../support/in-process-service.js';
import { sandboxAndRuns } from './sandbox-and-runs.js';

describe('startService', () => {
  const { sandbox } = sandboxAndRuns();

  it('runs in-process, answers, and stops idempotently with a quiet log', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 3101, name: 'Lib', username: 'library_mode_bot' });
    const { service, lines } = await startInProcess(sandbox.baseUrl, bot.token, {}, 'lib');
    expect(service.botUsername).toBe('library_mode_bot');
    expect(service.serverUrl).toBeNull();

    await sendAsUser(sandbox.baseUrl, 3101, bot.username, 'ping');
    expect(await botRepliesTo(sandbox.baseUrl, bot.username, 3101, 1)).toEqual(['pong']);
    await Promise.all([service.stop(), service.stop()]);
    await service.stop();
    await service.done;
    expect(lines.filter((l) => l.includes('"msg":"stopped"'))).toHaveLength(1);
    expect(lines.filter((l) => /"level":(50|60)/.test(l))).toEqual([]);
    expect(lines.join('')).not.toContain(bot.token);
  });

  it('refuses to start when the rule path does not exist, releasing what it opened', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 3102, name: 'Lost', username: 'lost_rules_bot' });
    const config = await loadConfig({
      cwd: '/',
      env: { BOT_TOKEN: bot.token, BASE_URL: sandbox.baseUrl, HEARSAY_RULES: '/nonexistent/rules' },
      secrets: new Secrets(),
    });
    const error = await startService(config, { logger: createLogger({ level: 'silent' }) }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HearsayError);
    expect((error as HearsayError).code).toBe('HS_ERR_RULES_INVALID');
  });
});
