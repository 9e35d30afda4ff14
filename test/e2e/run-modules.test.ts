// What `hearsay run` loads: undici's parts from their own modules (its Pool for the Bot API calls, and its request()
// for a backend's), never undici's index, which loads all of undici's API and Node.js's own copy of undici with it,
// some MB of a running bot's memory. Read from node's list of the built-in modules it loaded, written at exit by a
// preloaded file.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBotViaAssistant, sendAsUser, waitForBotReplies } from '../support/sandbox-harness.js';
import { startRun, versionedRules, writeRules } from './run-process.js';
import { sandboxAndRuns } from './sandbox-and-runs.js';

/** The built-in module that undici's index loads and the Pool alone does not. */
const FULL_UNDICI = 'NativeModule internal/deps/undici/undici';

describe('hearsay run loads', () => {
  const { sandbox, running } = sandboxAndRuns();

  /** Runs a bot with `config` (hearsay.yaml) until it has answered once, stops it, and returns the built-in modules it loaded. */
  async function modulesLoaded(userId: number, config: string): Promise<string[]> {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId, name: 'Loads', username: `loads_${userId}_bot` });
    const rules = await writeRules(versionedRules('v1'));
    const out = await mkdtemp(join(tmpdir(), 'hearsay-modules-'));
    await writeFile(join(out, 'hearsay.yaml'), config);
    const preload = join(out, 'record.cjs');
    const list = join(out, 'modules.txt');
    await writeFile(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`);
    const run = startRun({
      cwd: out,
      env: {
        BOT_TOKEN: bot.token,
        BASE_URL: sandbox.baseUrl,
        HEARSAY_RULES: rules.dir,
        HEARSAY_DATA_DIR: join(out, 'data'),
        NODE_OPTIONS: `--require ${preload}`,
      },
    });
    running.push(run);
    await run.waitForLine(/hearsay is running/, 20_000);
    const sent = await sendAsUser(sandbox.baseUrl, userId, bot.username, 'ping');
    const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId, bot: bot.username, after: sent.message_id, timeoutMs: 10_000 });
    expect(reply!.text).toBe('pong');
    expect(await run.stop('SIGTERM')).toBe(0);
    return (await readFile(list, 'utf8')).split('\n');
  }

  it("none of undici's full API, for a bot without backends and for one that declares a backend", async () => {
    const plain = await modulesLoaded(5101, 'polling:\n  timeout: 1\n');
    expect(plain).toContain('NativeModule http');
    expect(plain).not.toContain(FULL_UNDICI);
    const withBackend = await modulesLoaded(5102, 'polling:\n  timeout: 1\nbackends:\n  shop:\n    url: http://127.0.0.1:9/api\n');
    expect(withBackend).toContain('NativeModule http');
    expect(withBackend).not.toContain(FULL_UNDICI);
  });
});
