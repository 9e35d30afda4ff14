// `hearsay check [path]`: validates a rule file or directory and prints every problem as
// `path:line:column: message`, then a summary. Exit 0 when valid (warnings allowed, unless --strict), 1
// when not, 2 on a usage error such as a path that does not exist.
import { existsSync, statSync } from 'node:fs';
import { ConfigError, DEFAULT_CONFIG_FILE } from '../../config/index.js';
import { readConfigFile } from '../../config/file.js';
import type { RuleEnvironment } from '../../engine/compile-reach.js';
import { Command } from 'commander';
import { checkRules } from '../../rules/load.js';
import { describeFsError } from '../../rules/rule-files.js';
import { displayPath, plural } from '../display-path.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE, USAGE_EXIT_CODE } from '../../errors/exit-codes.js';

export function checkCommand(): Command {
  return new Command('check')
    .description('validate rule files and report every problem with its position')
    .argument('[path]', 'a rule file or a directory of *.yaml / *.yml files', 'rules/')
    .option('--strict', 'fail on warnings too (rules that never fire, examples, unknown variables)')
    .option(
      '--config <file>',
      'the configuration whose declarations the rules name (chats, backends, handoff); default: hearsay.yaml in the working directory, if present',
    )
    .addHelpText(
      'after',
      '\nPrints each problem as path:line:column: message, then a summary. The rule language: docs/rules.md.\nExit codes: 0 valid (warnings allowed, unless --strict), 1 problems found (or warnings with --strict), 2 usage error.',
    )
    .action(async (path: string, options: { strict?: boolean; config?: string }) => {
      // Said precisely: a symlink loop or a dangling link is not "no such file".
      const unusable = pathProblem(path);
      if (unusable) {
        process.stderr.write(`hearsay check: ${path}: ${unusable}\n`);
        process.exitCode = USAGE_EXIT_CODE;
        return;
      }
      const environment = await configEnvironment(options.config);
      if (typeof environment === 'string') {
        process.stderr.write(`hearsay check: ${environment}\n`);
        process.exitCode = USAGE_EXIT_CODE;
        return;
      }
      const { problems, fileCount, ruleCount } = await checkRules(path, undefined, environment);
      for (const problem of problems) process.stdout.write(`${problem.format(displayPath(problem.file))}\n`);
      const errors = problems.filter((p) => p.severity === 'error').length;
      const warnings = problems.length - errors;
      const summary = [plural(fileCount, 'file'), plural(ruleCount, 'rule'), plural(errors, 'problem')];
      if (warnings > 0) summary.push(plural(warnings, 'warning'));
      process.stdout.write(`${summary.join(', ')}\n`);
      const failed = errors > 0 || (options.strict === true && warnings > 0);
      process.exitCode = failed ? FAILURE_EXIT_CODE : OK_EXIT_CODE;
    });
}

/** The names the configuration declares (from --config, else ./hearsay.yaml when present); a message when the file is unusable. */
async function configEnvironment(configPath: string | undefined): Promise<RuleEnvironment | string> {
  const path = configPath ?? DEFAULT_CONFIG_FILE;
  if (configPath === undefined && !existsSync(path)) return { chats: new Set(), backends: new Set(), configFile: null };
  try {
    const file = await readConfigFile(path, path);
    return {
      chats: new Set(Object.keys(file.content.chats ?? {})),
      backends: new Set(Object.keys(file.content.backends ?? {})),
      handoff: file.content.handoff !== undefined,
      configFile: path,
    };
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.format()).join('; ');
    throw error;
  }
}

function pathProblem(path: string): string | undefined {
  try {
    statSync(path);
    return undefined;
  } catch (error) {
    return describeFsError(error);
  }
}
