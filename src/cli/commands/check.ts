// `hearsay check [path]`: validates a rule file or directory and prints every problem as
// `path:line:column: message`, then a summary. Exit 0 when valid (warnings allowed), 1 when not,
// 2 on a usage error such as a path that does not exist.
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { Command } from 'commander';
import { checkRules } from '../../rules/load.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE, USAGE_EXIT_CODE } from '../exit-codes.js';

export function checkCommand(): Command {
  return new Command('check')
    .description('validate rule files and report every problem with its position')
    .argument('[path]', 'a rule file or a directory of *.yaml / *.yml files', 'rules/')
    .addHelpText(
      'after',
      '\nPrints each problem as path:line:column: message, then a summary. The rule language: docs/rules.md.\nExit codes: 0 valid (warnings allowed), 1 problems found, 2 usage error.',
    )
    .action(async (path: string) => {
      if (!existsSync(path)) {
        process.stderr.write(`hearsay check: ${path}: no such file or directory\n`);
        process.exitCode = USAGE_EXIT_CODE;
        return;
      }
      const { problems, fileCount, ruleCount } = await checkRules(path);
      for (const problem of problems) process.stdout.write(`${problem.format(displayPath(problem.file))}\n`);
      const errors = problems.filter((p) => p.severity === 'error').length;
      const warnings = problems.length - errors;
      const summary = [plural(fileCount, 'file'), plural(ruleCount, 'rule'), plural(errors, 'problem')];
      if (warnings > 0) summary.push(plural(warnings, 'warning'));
      process.stdout.write(`${summary.join(', ')}\n`);
      process.exitCode = errors > 0 ? FAILURE_EXIT_CODE : OK_EXIT_CODE;
    });
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Relative to the working directory when the file is inside it, so paths stay short and clickable. */
function displayPath(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}
