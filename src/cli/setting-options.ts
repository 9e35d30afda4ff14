// The command-line flags of every setting (from the one SETTINGS table), shared by `run` and `start`,
// and the reading of their parsed values back into setting keys for loadConfig.
import { Option, type Command } from 'commander';
import { SETTINGS, type SettingKind } from '../config/settings.js';
import type { ServiceConfig } from '../config/types.js';
import { createLogger, type Logger } from '../log/logger.js';
import { processSecrets } from '../log/secrets.js';

const PLACEHOLDERS: Partial<Record<SettingKind, string>> = { listen: 'host:port', path: 'path', url: 'url', integer: 'n', number: 'n' };

export interface SettingFlag {
  key: string;
  flag: string;
}

/** Adds one option per setting that has a flag; returns them by commander attribute name. */
export function addSettingOptions(command: Command): Map<string, SettingFlag> {
  const flags = new Map<string, SettingFlag>();
  for (const spec of SETTINGS) {
    if (!spec.flag) continue;
    // The default and the variable are only shown: a commander default would hide the file and environment.
    const shown = [`env ${spec.env}`, ...(spec.defaultText !== undefined ? [`default ${spec.defaultText}`] : [])];
    const description = `${spec.meaning.replace(/`/g, '')} [${shown.join(', ')}]`;
    // A boolean flag alone means true; `--flag false` turns a setting off that the file or environment set.
    const option =
      spec.kind === 'boolean'
        ? new Option(`${spec.flag} [true|false]`, description)
        : new Option(`${spec.flag} <${PLACEHOLDERS[spec.kind] ?? 'value'}>`, description);
    command.addOption(option);
    flags.set(option.attributeName(), { key: spec.key, flag: spec.flag });
  }
  return flags;
}

/** The parsed options as `{ setting key: value }`, the form loadConfig takes. */
export function settingFlagValues(flags: Map<string, SettingFlag>, options: Record<string, unknown>): Record<string, string | boolean | undefined> {
  const values: Record<string, string | boolean | undefined> = {};
  for (const [attribute, { key }] of flags) {
    const value = options[attribute];
    values[key] = typeof value === 'string' || typeof value === 'boolean' ? value : undefined;
  }
  return values;
}

/** The logger a running service writes to, as its log settings say; secrets are scrubbed. */
export function serviceLogger(config: ServiceConfig): Logger {
  return createLogger({
    level: config.log.level,
    ...(config.log.format === 'auto' ? {} : { pretty: config.log.format === 'pretty' }),
    secrets: processSecrets,
  });
}
