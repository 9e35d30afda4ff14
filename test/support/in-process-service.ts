// Starts the real service in this process against a sandbox, for tests that read its logs, count requests
// or read metrics: its own data directory, JSON log lines (debug level) kept in memory.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { versionedRules, writeRules } from '../e2e/run-process.js';
import { lineCapture } from './log-capture.js';

export interface InProcessService {
  service: RunningService;
  lines: string[];
}

/** `rulesVersion` prefixes the test rules' answers (see versionedRules), e.g. 'v1: hello'. */
export async function startInProcess(baseUrl: string, token: string, env: Record<string, string> = {}, rulesVersion = 'v1'): Promise<InProcessService> {
  const rules = await writeRules(versionedRules(rulesVersion));
  const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-faults-data-'));
  const secrets = new Secrets();
  const config = await loadConfig({
    cwd: rules.dir,
    env: { BOT_TOKEN: token, BASE_URL: baseUrl, HEARSAY_RULES: rules.dir, HEARSAY_DATA_DIR: dataDir, HEARSAY_POLLING_TIMEOUT: '1', ...env },
    secrets,
  });
  const { destination, lines } = lineCapture();
  const service = await startService(config, { logger: createLogger({ level: 'debug', destination, secrets }) });
  return { service, lines };
}

export async function sendmessageCount(baseUrl: string, bot: string): Promise<number> {
  const response = await fetch(`${baseUrl}/client/stats?bot=${bot}`);
  const body = (await response.json()) as { result: { requests: Record<string, number> } };
  return body.result.requests.sendmessage ?? 0;
}
