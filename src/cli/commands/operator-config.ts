// What the operator's commands on a bot's store (`hearsay state`, `hearsay broadcast`) share: the configuration read
// with --config and --data-dir over the environment, the bot it names, and the words for a running bot that did not
// answer in time.
import { ConfigError, loadConfig } from '../../config/index.js';
import type { ServiceConfig } from '../../config/types.js';
import { processSecrets } from '../../log/secrets.js';
import type { NoAnswerError } from '../../store/operator-store.js';

/** The configuration and its bot's id; `problem` (a usage error) when the configuration is broken. */
export async function operatorConfig(options: {
  readonly config?: string | undefined;
  readonly dataDir?: string | undefined;
}): Promise<{ readonly config: ServiceConfig; readonly botId: number } | { readonly problem: string }> {
  try {
    const config = await loadConfig({
      ...(options.config !== undefined ? { configPath: options.config } : {}),
      flags: { data_dir: options.dataDir },
      secrets: processSecrets,
    });
    return { config, botId: Number(config.token.split(':')[0]) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { problem: error.problems.map((p) => p.format()).join('; ') };
  }
}

/** What to tell the operator when the running bot took the request but did not answer in time. */
export function noAnswerText(error: NoAnswerError): string {
  return `${error.message}; is it stopping? Try again once it runs or has stopped`;
}
