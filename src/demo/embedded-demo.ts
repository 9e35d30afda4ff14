// `hearsay start` without a token: the sandbox in this process with its chat page, a demo bot created
// through the assistant with its staff group (demo-staff-group.ts), and the engine answering it in the
// configured mode. Stopping reverses the order.
import { randomInt } from 'node:crypto';
import type { ServiceConfig } from '../config/index.js';
import type { Logger } from '../log/logger.js';
import { createSandbox, type Sandbox } from '../sandbox/index.js';
import type { HearsayCommand } from '../sandbox/assistant.js';
import { listenFailureMessage, SANDBOX_LISTEN_HINTS } from '../ops/listen-failure.js';
import { webChatPlugin } from '../sandbox/web/plugin.js';
import { PageNotices } from '../sandbox/web/page-notices.js';
import { rulesStartupError } from '../service/errors.js';
import { startService, type RunningService } from '../service/start.js';
import { checkRules } from '../rules/load.js';
import { createDemoBot, demoUsernames } from './create-demo-bot.js';
import { demoDataDir, type DemoDataDir } from './demo-data-dir.js';
import { demoRules, type DemoRules } from './demo-rules-dir.js';
import { loadDemoConfig, type DemoConfigOptions } from './demo-config.js';
import { createDemoStaffGroup, withDemoStaffGroup } from './demo-staff-group.js';
import { HearsayError } from '../errors/hearsay-error.js';
import { connectableHost, hostForUrl } from './free-port.js';
import { openCommunityGroup } from './community-group.js';

export interface EmbeddedDemoOptions extends DemoConfigOptions {
  /** Where the sandbox and its chat page listen. */
  host: string;
  port: number;
  /** The checked settings from loadDemoSettings. */
  settings: ServiceConfig;
  logger: Logger;
  /** How the user starts hearsay, for BotMaker's hint on running a bot they create (`hearsay` by default). */
  hearsayCommand?: HearsayCommand;
}

export interface EmbeddedDemo {
  /** The chat page, e.g. http://127.0.0.1:8081/ */
  pageUrl: string;
  sandboxUrl: string;
  botUsername: string;
  /** The rule folder the bot answers with (the built-in demo rules' temporary copy without a rules/ folder). */
  rulesPath: string;
  service: RunningService;
  /** Stops the engine, then the sandbox; idempotent. */
  stop(): Promise<void>;
}

/**
 * The sandbox user who creates the demo bot, a new random id at every start: the assistant's answer in that
 * user's chat holds the bot's token, and a fixed id would let any page user read it. The range is far above
 * the ids the chat page gives its users (under 2^31), so no one is given the owner's id by chance.
 */
export function demoOwner(): { id: number; first_name: string } {
  return { id: randomInt(2 ** 40, 2 ** 47), first_name: 'hearsay' };
}
export const DEMO_BOT_NAME = 'hearsay demo';

export async function startEmbeddedDemo(options: EmbeddedDemoOptions): Promise<EmbeddedDemo> {
  const rules = await checkedRules(options);
  const rulesPath = rules.flag ?? options.settings.rulesPath;
  const { sandbox, notices, sandboxUrl } = await openSandbox(options, rules);
  const temporary: { dataDir?: DemoDataDir } = {};
  try {
    const { service, botUsername } = await startDemoBot(options, sandboxUrl, rules, notices, temporary);
    // Not awaited: the demo is ready (and stops cleanly on a signal) at once; the group follows a moment later.
    const community = openCommunityGroup({ rulesPath, limits: options.settings.ruleLimits, sandboxUrl, botUsername, logger: options.logger });
    const stop = stopper(
      service,
      sandbox,
      async () => {
        await temporary.dataDir!.remove();
        await rules.remove();
      },
      community,
    );
    return { pageUrl: `${sandboxUrl}/`, sandboxUrl, botUsername, rulesPath, service, stop };
  } catch (error) {
    await sandbox.close();
    await temporary.dataDir?.remove();
    await rules.remove();
    throw error;
  }
}

/** The rules the demo answers with (the built-in ones without a rules/ folder), refused before anything listens if broken. */
async function checkedRules(options: EmbeddedDemoOptions): Promise<DemoRules> {
  const { logger } = options;
  const command = options.hearsayCommand ?? 'hearsay';
  const hearsay = typeof command === 'string' ? command : command();
  const rules = await demoRules(options.settings, hearsay, options.cwd);
  const rulesPath = rules.flag ?? options.settings.rulesPath;
  if (rules.flag !== undefined) {
    logger.info(
      { rules: rulesPath },
      `there is no rules/ folder here, so the demo answers with its built-in rules ('${hearsay} init' creates a bot of your own)`,
    );
  }
  // Broken rules are reported before anything listens, as `hearsay run` does; the service loads them again.
  const { problems } = await checkRules(rulesPath, options.settings.ruleLimits);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    await rules.remove();
    throw rulesStartupError(rulesPath, errors);
  }
  return rules;
}

/** The sandbox with its chat page, listening; on failure the rules' temporary copy is removed too. */
async function openSandbox(options: EmbeddedDemoOptions, rules: DemoRules): Promise<{ sandbox: Sandbox; notices: PageNotices; sandboxUrl: string }> {
  const sandbox = await createSandbox({
    logger: options.logger.child({ name: 'sandbox' }),
    ...(options.hearsayCommand !== undefined ? { hearsayCommand: options.hearsayCommand } : {}),
  });
  const notices = new PageNotices();
  await sandbox.app.register(webChatPlugin, { store: sandbox.store, onMessage: sandbox.onMessage, notices });
  let listened: string;
  try {
    listened = await sandbox.listen({ host: options.host, port: options.port });
  } catch (error) {
    await sandbox.close();
    await rules.remove();
    throw new HearsayError('HS_ERR_DEMO_LISTEN', [listenFailureMessage(`${hostForUrl(options.host)}:${options.port}`, error, SANDBOX_LISTEN_HINTS)], {
      cause: error,
    });
  }
  const port = new URL(listened).port;
  return { sandbox, notices, sandboxUrl: `http://${hostForUrl(connectableHost(options.host))}:${port}` };
}

/** Creates the demo bot through the assistant and starts the engine answering it; the data folder it makes goes in `temporary`. */
async function startDemoBot(
  options: EmbeddedDemoOptions,
  sandboxUrl: string,
  rules: DemoRules,
  notices: PageNotices,
  temporary: { dataDir?: DemoDataDir },
): Promise<{ service: RunningService; botUsername: string }> {
  const bot = await createDemoBot(sandboxUrl, { owner: demoOwner(), name: DEMO_BOT_NAME, usernames: demoUsernames(), secrets: options.secrets });
  const dataDir = await demoDataDir(options.settings);
  temporary.dataDir = dataDir;
  const flags = {
    ...options.flags,
    ...(dataDir.flag !== undefined ? { data_dir: dataDir.flag } : {}),
    ...(rules.flag !== undefined ? { rules: rules.flag } : {}),
  };
  // The help desk: a "Support team" forum group with the bot and Sam, the bot's staff and hand-off chat.
  const staffGroup = await createDemoStaffGroup(sandboxUrl, bot.username);
  const config = withDemoStaffGroup(await loadDemoConfig({ ...options, flags }, options.settings, sandboxUrl, bot.token), staffGroup);
  const service = await startService(config, { logger: options.logger });
  // The page opens on the demo bot; the banner of its rule problems comes from the service itself, as for any
  // bot hearsay runs against the sandbox (service/sandbox-companion.ts).
  notices.setHome(bot.username);
  return { service, botUsername: bot.username };
}

function stopper(service: RunningService, sandbox: Sandbox, removeTemporary: () => Promise<void>, pending: Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      // What the demo still makes in the sandbox (its community group; it never rejects) finishes first.
      await pending;
      await service.stop();
      await sandbox.close();
      await removeTemporary();
    })();
    return stopping;
  };
}
