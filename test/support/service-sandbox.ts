// One sandbox for a describe block's tests, each of which starts the real service in this process with its own
// rules and hearsay.yaml (named chats, hand-off...); the service a test started is stopped after it.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { writeRules } from '../e2e/run-process.js';
import { lineCapture } from './log-capture.js';
import { startSandbox, type StartedSandbox } from './sandbox-harness.js';

export interface ServiceSandbox {
  /** Started before the block's first test, closed after its last. */
  sandbox: StartedSandbox;
  /**
   * Starts the service of the bot with `token` on `rules` (YAML text) and a hearsay.yaml holding `configYaml`,
   * polling the sandbox, its log lines (info level) kept in `lines`; stopped after the current test.
   */
  startService(token: string, files: { rules: string; configYaml: string }): Promise<{ service: RunningService; lines: string[] }>;
}

/** Registers the describe block's hooks: a sandbox for all its tests, and the service each test starts stopped after it. */
export function useServiceSandbox(): ServiceSandbox {
  let service: RunningService | undefined;
  const setup = {
    async startService(token, files) {
      const baseUrl = setup.sandbox.baseUrl;
      const rules = await writeRules(files.rules);
      const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-service-data-'));
      const configDir = await mkdtemp(join(tmpdir(), 'hearsay-service-config-'));
      await writeFile(join(configDir, 'hearsay.yaml'), files.configYaml);
      const secrets = new Secrets();
      const config = await loadConfig({
        cwd: configDir,
        env: { BOT_TOKEN: token, BASE_URL: baseUrl, HEARSAY_RULES: rules.dir, HEARSAY_DATA_DIR: dataDir, HEARSAY_POLLING_TIMEOUT: '1' },
        secrets,
      });
      const { destination, lines } = lineCapture();
      service = await startService(config, { logger: createLogger({ level: 'info', destination, secrets }) });
      return { service, lines };
    },
  } as ServiceSandbox;
  beforeAll(async () => {
    setup.sandbox = await startSandbox();
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });
  afterAll(async () => {
    await setup.sandbox?.close();
  });
  return setup;
}
