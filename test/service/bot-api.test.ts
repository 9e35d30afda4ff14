// The service's client as it is composed once for every caller: start-up calls retry a 502 (the service
// starts), a refused token is asked once and ends the start, setWebhook retries, each request is counted
// per method and outcome, and /healthz follows the last request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { HealthState } from '../../src/ops/health.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { createServiceBotApi } from '../../src/service/bot-api.js';
import { HearsayError } from '../../src/errors/hearsay-error.js';
import { createBotViaAssistant, injectFault } from '../support/sandbox-harness.js';
import { startInProcess } from '../support/in-process-service.js';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';

const requests = async (baseUrl: string, bot: string): Promise<Record<string, number>> => {
  const response = await fetch(`${baseUrl}/client/stats?bot=${bot}`);
  return ((await response.json()) as { result: { requests: Record<string, number> } }).result.requests;
};

describe('the service client', () => {
  const { sandbox } = sandboxAndRuns();

  it('starts although getMe first answers 502: the start-up call is retried, and counted per method', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 3201, name: 'Patient', username: 'patient_start_bot' });
    await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'getme', count: 1, status: 502 });
    const { service } = await startInProcess(sandbox.baseUrl, bot.token);
    try {
      expect(service.botUsername).toBe('patient_start_bot');
      expect((await requests(sandbox.baseUrl, bot.username)).getme).toBe(2);
      const metrics = (await service.metrics.render()).body;
      expect(metrics).toMatch(/^hearsay_api_calls_total\{method="getme",outcome="server_error"\} 1$/m);
      expect(metrics).toMatch(/^hearsay_api_calls_total\{method="getme",outcome="ok"\} 1$/m);
      expect(metrics).toMatch(/^hearsay_errors_total\{kind="server_error"\} 1$/m);
      // Both attempts are timed, the refused one too, in the method's own series.
      expect(metrics).toMatch(/^# TYPE hearsay_api_call_duration_seconds histogram$/m);
      expect(metrics).toMatch(/^hearsay_api_call_duration_seconds_count\{method="getme"\} 2$/m);
      expect(metrics).toMatch(/^hearsay_api_call_duration_seconds_bucket\{le="\+Inf",method="getme"\} 2$/m);
    } finally {
      await service.stop();
    }
  });

  it('a token refused at start (401) is asked once and ends the start with the operator message', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 3202, name: 'Refused', username: 'refused_start_bot' });
    await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'getme', count: 3, status: 401, description: 'Unauthorized' });
    const error = await startInProcess(sandbox.baseUrl, bot.token).then(
      ({ service }) => service.stop().then(() => null),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HearsayError);
    expect((error as HearsayError).code).toBe('HS_ERR_TOKEN_REFUSED');
    expect((error as Error).message).toMatch(/^the token was rejected \(401 Unauthorized\); check BOT_TOKEN/);
    expect((await requests(sandbox.baseUrl, bot.username)).getme).toBe(1);
  });

  it('a wrong BASE_URL (nothing listening) still ends the start with the unreachable message, after the start-up attempts', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await startInProcess(`http://127.0.0.1:${port}`, '123:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').then(
      ({ service }) => service.stop().then(() => null),
      (e: unknown) => e,
    );
    expect((error as HearsayError).code).toBe('HS_ERR_API_UNREACHABLE');
    expect((error as Error).message).toBe(`cannot reach the Bot API at http://127.0.0.1:${port}: getme failed: network error ECONNREFUSED`);
  });

  it('setWebhook retries a 502; /healthz follows the last request', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 3203, name: 'Hooked', username: 'hooked_retry_bot' });
    const config = await loadConfig({ cwd: '/', env: { BOT_TOKEN: bot.token, BASE_URL: sandbox.baseUrl }, secrets: new Secrets() });
    const health = new HealthState('webhook');
    const metrics = new ServiceMetrics({ processMetrics: false });
    const { api, transport } = createServiceBotApi({ config, logger: createLogger({ level: 'silent' }), metrics, health });
    try {
      await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'setwebhook', count: 1, status: 502 });
      await api.setWebhook({ url: 'https://bot.example/hook' });
      expect((await api.getWebhookInfo()).url).toBe('https://bot.example/hook');
      expect((await requests(sandbox.baseUrl, bot.username)).setwebhook).toBe(2);
      expect(health.lastApiCallOk).toBe(true);
      await injectFault(sandbox.baseUrl, { bot: bot.username, method: 'getwebhookinfo', count: 5, status: 502 });
      await expect(api.getWebhookInfo()).rejects.toMatchObject({ errorCode: 502 });
      expect(health.lastApiCallOk).toBe(false);
    } finally {
      await transport.close();
    }
  });
});
