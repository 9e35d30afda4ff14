// The documentation and the example file must keep up with the settings table.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Secrets } from '../../src/log/secrets.js';
import { SETTINGS, defaultBackend, loadConfig } from '../../src/config/index.js';
import { defaultValue } from '../../src/config/layers.js';
import { settingValueMessages } from '../../src/config/schema-messages.js';

const root = new URL('../../', import.meta.url).pathname;

describe('configuration reference', () => {
  it('docs/configuration.md lists every setting with its environment variable, flag and default', () => {
    const doc = readFileSync(`${root}docs/configuration.md`, 'utf8');
    for (const spec of SETTINGS) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${spec.key}\` |`));
      expect(row, spec.key).toBeDefined();
      expect(row).toContain(`\`${spec.env}\``);
      if (spec.flag) expect(row).toContain(`\`${spec.flag}\``);
      if (spec.defaultText) expect(row).toContain(`\`${spec.defaultText}\``);
    }
  });

  it('every default lives in the settings table and is a valid value of its setting', () => {
    for (const spec of SETTINGS) {
      const value = defaultValue(spec);
      if (spec.defaultText === undefined || spec.computedDefault) expect(value, spec.key).toBeUndefined();
      else expect(settingValueMessages(spec.key, value), spec.key).toEqual([]);
    }
    expect(defaultValue(SETTINGS.find((s) => s.key === 'rate_limits.enabled')!)).toBe(true);
    expect(defaultValue(SETTINGS.find((s) => s.key === 'api.timeout')!)).toBe(10);
  });

  it('hearsay.example.yaml is a valid config file whose values match the documented defaults', async () => {
    const config = await loadConfig({
      cwd: root,
      configPath: 'hearsay.example.yaml',
      env: { BOT_TOKEN: '1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      secrets: new Secrets(),
    });
    const defaults = await loadConfig({ cwd: '/', env: { BOT_TOKEN: '1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, secrets: new Secrets() });
    expect(config.polling).toEqual(defaults.polling);
    expect(config.delivery).toEqual(defaults.delivery);
    expect(config.state).toEqual(defaults.state);
    expect(defaults.state.ttlMs).toBe(90 * 86_400_000);
    expect(config.log).toEqual(defaults.log);
    expect(config.rulesPath).toBe(`${root}rules`);
    expect(config.ruleLimits).toEqual(defaults.ruleLimits);
    // Its backend (the demo shop the demo rules ask) spells out every backend default.
    expect(config.backends).toEqual({ shop: defaultBackend('shop', 'http://127.0.0.1:8081/demo/shop') });
    for (const spec of SETTINGS) {
      if (spec.defaultText && /^\d+$/.test(spec.defaultText)) {
        const value = spec.key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], {
          polling: { timeout: defaults.polling.timeoutSeconds, limit: defaults.polling.limit },
          webhook: {
            max_body_bytes: defaults.webhook.maxBodyBytes,
            max_connections: defaults.webhook.maxConnections,
            header_timeout: defaults.webhook.connections.headerTimeoutMs / 1000,
            body_timeout: defaults.webhook.connections.bodyTimeoutMs / 1000,
            idle_timeout: defaults.webhook.connections.idleTimeoutMs / 1000,
            connection_limit: defaults.webhook.connections.limit,
          },
          api: { timeout: defaults.api.timeoutMs / 1000 },
          rule_limits: { max_file_bytes: defaults.ruleLimits.maxFileBytes, max_rules: defaults.ruleLimits.maxRules },
          rate_limits: {
            per_chat_per_second: defaults.rateLimits?.perChatPerSecond,
            per_group_per_minute: defaults.rateLimits?.perGroupPerMinute,
            overall_per_second: defaults.rateLimits?.overallPerSecond,
          },
          state: { max_user_bytes: defaults.state.maxUserBytes },
          delivery: {
            concurrency: defaults.delivery.concurrency,
            max_pending: defaults.delivery.maxPending,
            max_attempts: defaults.delivery.maxAttempts,
            shutdown_timeout: defaults.delivery.shutdownTimeoutMs / 1000,
          },
        });
        expect(value, spec.key).toBe(Number(spec.defaultText));
      }
    }
  });
});
