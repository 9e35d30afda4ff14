import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ApiError, NetworkError } from '../../src/api/errors.js';
import { AdminServer } from '../../src/ops/admin-server.js';
import { HealthState } from '../../src/ops/health.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { TransformedBotApi } from '../../src/api/bot-api.js';
import { healthWatcher, watchingTransformer } from '../../src/ops/api-transformers.js';
import { FakeBotApi } from '../delivery/fake-bot-api.js';

const servers: AdminServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('health and metrics', () => {
  it('/healthz turns 503 when the last API call failed at the service, and back to 200 when one succeeds', async () => {
    const health = new HealthState('polling');
    health.rulesActive = 4;
    const metrics = new ServiceMetrics();
    const admin = new AdminServer({ health, metrics });
    servers.push(admin);
    const url = await admin.listen({ host: '127.0.0.1', port: 0 });
    const fake = new FakeBotApi();
    const api = new TransformedBotApi(fake, [watchingTransformer([healthWatcher(health)])]);
    const check = async () => {
      const response = await fetch(`${url}/healthz`);
      return { status: response.status, body: await response.json() };
    };

    expect(await check()).toEqual({ status: 200, body: { status: 'ok', rules: 4, last_api_call_ok: true, mode: 'polling' } });

    // A refusal of one message (user blocked the bot) says nothing bad about the service.
    fake.sendFailures = [new ApiError('sendmessage', 403, 'Forbidden: bot was blocked by the user')];
    await api.sendMessage({ chat_id: 1, text: 'x' }).catch(() => undefined);
    expect((await check()).status).toBe(200);

    for (const failure of [new ApiError('sendmessage', 502, 'Bad Gateway'), new NetworkError('sendmessage', 'ECONNREFUSED')]) {
      fake.sendFailures = [failure];
      await api.sendMessage({ chat_id: 1, text: 'x' }).catch(() => undefined);
      expect(await check()).toEqual({ status: 503, body: { status: 'unavailable', rules: 4, last_api_call_ok: false, mode: 'polling' } });
    }

    await api.sendMessage({ chat_id: 1, text: 'x' });
    expect((await check()).status).toBe(200);
  });

  it('/metrics serves the hearsay series and process metrics in Prometheus text format, per service registry', async () => {
    const health = new HealthState('polling');
    const metrics = new ServiceMetrics();
    const other = new ServiceMetrics();
    metrics.updatesReceived.inc(3);
    metrics.error('rate_limited');
    metrics.reloads.inc({ result: 'failure' });
    metrics.reloadSuccess.set(0);
    const admin = new AdminServer({ health, metrics });
    servers.push(admin);
    const url = await admin.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${url}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^hearsay_updates_received_total 3$/m);
    expect(text).toMatch(/^hearsay_errors_total\{kind="rate_limited"\} 1$/m);
    // Every error kind the operations guide lists is a series from the start, so dashboards and alerts see it at 0.
    const guide = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    const row = guide.split('\n').find((line) => line.startsWith('| `hearsay_errors_total{kind}`'))!;
    const documented = [...row.split('|')[3]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
    expect(documented.length).toBeGreaterThan(10);
    for (const kind of documented) expect(text).toMatch(new RegExp(`^hearsay_errors_total\\{kind="${kind}"\\} \\d+$`, 'm'));
    expect(text).toMatch(/^hearsay_reloads_total\{result="failure"\} 1$/m);
    expect(text).toMatch(/^hearsay_reload_success 0$/m);
    expect(text).toMatch(/^# TYPE hearsay_match_duration_seconds histogram$/m);
    expect(text).toMatch(/^process_resident_memory_bytes /m);
    // A second service in the same process keeps its own numbers.
    expect(await other.registry.getSingleMetricAsString('hearsay_updates_received_total')).toMatch(/hearsay_updates_received_total 0$/);
  });
});
