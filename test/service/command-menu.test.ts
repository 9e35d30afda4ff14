// The "/" command menu from the rules: hearsay (startService against the sandbox over real HTTP) sets it with
// setMyCommands from the command rules' descriptions, per scope (private chats and groups apart when chat_types
// keep a command to one of them) and per language, and sets it again after a reload that changes it; `check`
// reports what the service would refuse.
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { checkRules } from '../../src/rules/load.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { createBotViaAssistant } from '../support/sandbox-harness.js';

const RULES = `languages: { default: en, supported: [en, de] }
rules:
  - id: start
    command: start
    description: { en: say hello, de: Hallo sagen }
    reply: hi
  - id: help
    command: help
    description: what I understand
    reply: help
  - id: stats
    command: stats
    chat_types: [group, supergroup]
    description: group statistics
    reply: stats
  - id: secret
    command: secret
    reply: not in the menu
`;

let dir: string;
let sandbox: Sandbox;
let baseUrl: string;
let service: RunningService | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-menu-'));
  await mkdir(join(dir, 'rules'));
  sandbox = await createSandbox();
  baseUrl = await sandbox.listen({ host: '127.0.0.1', port: 0 });
});
afterEach(async () => {
  await service?.stop();
  service = undefined;
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function commandsOf(token: string, scope: string, language?: string): Promise<Array<{ command: string; description: string }>> {
  const body = { scope: { type: scope }, ...(language ? { language_code: language } : {}) };
  const response = await fetch(`${baseUrl}/bot${token}/getmycommands`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { result: Array<{ command: string; description: string }> }).result;
}

describe('the command menu', () => {
  it('is set from the descriptions per scope and language at start, and set again after a reload that changes it', async () => {
    await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
    const { token } = await createBotViaAssistant(baseUrl, { userId: 8001, name: 'Menu', username: 'menu_shop_bot' });
    const secrets = new Secrets();
    const config = await loadConfig({
      cwd: dir,
      env: { BOT_TOKEN: token, BASE_URL: baseUrl, HEARSAY_RULES: join(dir, 'rules'), HEARSAY_DATA_DIR: join(dir, 'data'), HEARSAY_POLLING_TIMEOUT: '1' },
      secrets,
    });
    service = await startService(config, { logger: createLogger({ level: 'silent', secrets }) });
    const hello = { command: 'start', description: 'say hello' };
    const help = { command: 'help', description: 'what I understand' };
    // The lists are set one after the other: the German group list last.
    await expect.poll(async () => (await commandsOf(token, 'all_group_chats', 'de')).length, { timeout: 10_000 }).toBe(3);
    expect(await commandsOf(token, 'all_private_chats')).toEqual([hello, help]);
    expect(await commandsOf(token, 'all_private_chats', 'de')).toEqual([{ command: 'start', description: 'Hallo sagen' }, help]);
    expect(await commandsOf(token, 'all_group_chats')).toEqual([hello, help, { command: 'stats', description: 'group statistics' }]);
    expect(await commandsOf(token, 'all_group_chats', 'de')).toEqual([
      { command: 'start', description: 'Hallo sagen' },
      help,
      { command: 'stats', description: 'group statistics' },
    ]);
    expect(await commandsOf(token, 'default')).toEqual([]);

    // No command kept to groups any more, and help without a description: one list for every chat, and the
    // private and group lists deleted.
    await writeFile(
      join(dir, 'rules', 'bot.yaml'),
      RULES.replace('    chat_types: [group, supergroup]\n', '').replace('    description: what I understand\n', ''),
    );
    await service.reloadRules();
    // The new lists are set first, then the old ones deleted: the last deletion is the German group list.
    await expect.poll(async () => (await commandsOf(token, 'all_group_chats', 'de')).length, { timeout: 10_000 }).toBe(0);
    expect(await commandsOf(token, 'default')).toEqual([hello, { command: 'stats', description: 'group statistics' }]);
    expect(await commandsOf(token, 'default', 'de')).toEqual([
      { command: 'start', description: 'Hallo sagen' },
      { command: 'stats', description: 'group statistics' },
    ]);
    // The scoped lists are deleted (the app then shows the default list in every chat).
    expect(await commandsOf(token, 'all_private_chats')).toEqual([]);
    expect(await commandsOf(token, 'all_group_chats', 'de')).toEqual([]);
  }, 60_000);
});

describe('check and the command menu', () => {
  async function errors(rules: string): Promise<string[]> {
    const path = join(dir, 'rules', 'bot.yaml');
    await writeFile(path, rules);
    const { problems } = await checkRules(join(dir, 'rules'));
    return problems.filter((p) => p.severity === 'error').map((p) => p.format('bot.yaml'));
  }

  it('reports a description over 256 characters, a command the menu refuses, and a description on a rule with no command', async () => {
    expect(await errors(`rules:\n  - id: start\n    command: start\n    description: ${'x'.repeat(257)}\n    reply: hi\n`)).toEqual([
      'bot.yaml:4:18: the description of /start has 257 characters; the service takes at most 256',
    ]);
    expect(await errors(`rules:\n  - id: start\n    command: Start\n    description: say hello\n    reply: hi\n`)).toEqual([
      "bot.yaml:3:14: the service's command menu takes commands of lowercase letters, digits and _ only: write command: start",
    ]);
    expect(await errors(`rules:\n  - id: hi\n    text: hi\n    description: say hello\n    reply: hi\n`)).toEqual([
      "bot.yaml:4:18: description is the line of a command in the / menu; rule 'hi' has no command: remove it",
    ]);
    // Without a description, an upper-case command is fine: it only answers, it is not listed.
    expect(await errors(`rules:\n  - id: start\n    command: Start\n    reply: hi\n`)).toEqual([]);
  });
});
