// `hearsay init [dir]`: scaffolds a bot that runs at once (rules/, hearsay.yaml, .gitignore, README.md) and
// says what to type next.
import { Command } from 'commander';
import { relative } from 'node:path';
import { ScaffoldError, writeProject } from '../../scaffold/write-project.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE } from '../../errors/exit-codes.js';
import { hearsayInvocation } from '../invocation.js';

function aligned(rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([command]) => command.length));
  return rows.map(([command, comment]) => `  ${command.padEnd(width)}  # ${comment}`);
}

export function initCommand(): Command {
  return new Command('init')
    .description('create a new bot in DIR (default: the current folder): starter rules and tests, hearsay.yaml, .gitignore, README.md')
    .argument('[dir]', 'the folder to create the bot in', '.')
    .action(async (dir: string) => {
      const hearsay = hearsayInvocation();
      try {
        const project = await writeProject(dir, hearsay);
        const shown = relative(process.cwd(), project.dir) || '.';
        const lines = [
          `Created a bot in ${shown}/: ${project.files.join(', ')}`,
          '',
          'Next:',
          ...(shown === '.' ? [] : [`  cd ${shown}`]),
          ...aligned([
            [`${hearsay} start`, 'try it in a local sandbox with a chat page (no token needed)'],
            [`${hearsay} check rules/`, 'check the rules after editing them'],
            [`${hearsay} test`, 'run the conversations in tests/ against them'],
            [`BOT_TOKEN=... ${hearsay} start`, 'run it for a real bot'],
          ]),
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
        process.exitCode = OK_EXIT_CODE;
      } catch (error) {
        if (!(error instanceof ScaffoldError)) throw error;
        process.stderr.write(`hearsay init: ${error.message}\n`);
        process.exitCode = FAILURE_EXIT_CODE;
      }
    });
}
