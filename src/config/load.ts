// Builds the service configuration from its layers: defaults < config file < environment < flags, in four
// steps a reader can follow: read the sources (token, file), merge the layers (layers.ts), check what needs
// several settings (cross-checks.ts), build the typed ServiceConfig (build.ts). Every problem in every step
// is collected, so one run shows everything to fix.
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { processSecrets, type Secrets } from '../log/secrets.js';
import { buildServiceConfig } from './build.js';
import { crossCheck } from './cross-checks.js';
import { ConfigError, ConfigProblem } from './errors.js';
import { readBackends } from './backends.js';
import { readConfigFile, type LoadedConfigFile } from './file.js';
import { resolveSettings } from './layers.js';
import { registerStoreUrlSecret } from './store.js';
import { readToken } from './token.js';
import type { ServiceConfig } from './types.js';

export { joinUrlPath } from './build.js';

export const DEFAULT_CONFIG_FILE = 'hearsay.yaml';

export interface LoadConfigOptions {
  /** `--config FILE`: must exist. Without it, `hearsay.yaml` in `cwd` is read when present. */
  configPath?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Flag values by setting key (`polling.timeout`), as given on the command line. */
  flags?: Record<string, string | boolean | undefined>;
  secrets?: Secrets;
}

/** The configuration, or a ConfigError (HS_ERR_CONFIG_INVALID) listing every problem found. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<ServiceConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const secrets = options.secrets ?? processSecrets;
  const problems: ConfigProblem[] = [];

  // The secret goes into the registry before any message could include it.
  secrets.add(env.HEARSAY_WEBHOOK_SECRET);
  registerStoreUrlSecret(env.HEARSAY_STORE, secrets);
  registerStoreUrlSecret(options.flags?.store, secrets);
  const tokenOrProblem = readToken(env, cwd, secrets);
  const file = await readFileLayer(options.configPath, cwd, secrets, problems);

  const settings = resolveSettings({ file, env, flags: options.flags ?? {}, cwd }, problems);
  const checked = crossCheck(settings, { env, cwd, secrets }, problems);
  const backends = readBackends(file, { env, cwd, secrets, shownPath: file ? shownPath(file.path, cwd) : '' }, problems);
  if (tokenOrProblem instanceof ConfigProblem) problems.push(tokenOrProblem);
  if (problems.length > 0 || tokenOrProblem instanceof ConfigProblem) throw new ConfigError(problems);
  const { token, source: tokenSource } = tokenOrProblem;
  return buildServiceConfig({ settings, checked, token, tokenSource, configFile: file?.path ?? null, file, backends, secrets });
}

/** The config file named by --config (which must exist), else hearsay.yaml in `cwd` when present. */
async function readFileLayer(configPath: string | undefined, cwd: string, secrets: Secrets, problems: ConfigProblem[]): Promise<LoadedConfigFile | null> {
  const path = resolve(cwd, configPath ?? DEFAULT_CONFIG_FILE);
  if (configPath === undefined && !existsSync(path)) return null;
  const shown = shownPath(path, cwd);
  try {
    const file = await readConfigFile(path, shown);
    secrets.add(file.content.webhook?.secret);
    registerStoreUrlSecret(file.content.store, secrets);
    return file;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
    return null;
  }
}

/** A path as messages show it: relative to the working directory when inside it. */
function shownPath(path: string, cwd: string): string {
  return relative(cwd, path).startsWith('..') ? path : relative(cwd, path);
}
