// `hearsay init [dir]`: scaffolds a bot that runs at once (rules/, tests/, hearsay.yaml) and can be a repository
// of its own (package.json pinning hearsay, a CI workflow, a Dockerfile), and says what to type next.
import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ScaffoldError, writeProject } from '../../scaffold/write-project.js';
import { DEFAULT_PACKAGE_SPEC, VENDORED_TARBALL } from '../../scaffold/repository-files.js';
import { FAILURE_EXIT_CODE, OK_EXIT_CODE } from '../../errors/exit-codes.js';
import { hearsayInvocationIn, nearPath } from '../invocation.js';

function aligned(rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([command]) => command.length));
  return rows.map(([command, comment]) => `  ${command.padEnd(width)}  # ${comment}`);
}

/** The hearsay checkout or package this runs from (its package.json beside dist/), if any: where `npm pack` makes the tarball. */
function packageRoot(): string | undefined {
  const script = process.argv[1];
  if (script === undefined) return undefined;
  const root = dirname(dirname(script));
  return existsSync(join(root, 'package.json')) && existsSync(join(root, 'dist', 'hearsay.cjs')) ? root : undefined;
}

/** What to type next, from the folder init ran in: the tarball (when pinned to it), then trying, checking and testing the bot. */
function nextSteps(shown: string, spec: string): string[] {
  const inProject = shown === '.' ? undefined : shown;
  const hearsay = hearsayInvocationIn(inProject);
  const root = packageRoot();
  const vendor = join(shown, 'vendor');
  const pack: Array<[string, string]> =
    spec !== DEFAULT_PACKAGE_SPEC
      ? []
      : root === undefined
        ? [[`npm pack --pack-destination ${vendor}`, `run in a hearsay checkout: package.json pins ${VENDORED_TARBALL}`]]
        : [[`npm pack ${nearPath(root, process.cwd())} --pack-destination ${vendor}`, `the release tarball package.json pins (${VENDORED_TARBALL})`]];
  return [
    'Next:',
    ...aligned(pack),
    ...(inProject === undefined ? [] : [`  cd ${inProject}`]),
    ...aligned([
      [`${hearsay} start`, 'try it in a local sandbox with a chat page (no token needed)'],
      [`${hearsay} chat`, 'or talk to it right here in the terminal'],
      [`${hearsay} check rules/`, 'check the rules after editing them'],
      [`${hearsay} test`, 'run the conversations in tests/ against them'],
      ['npm install && npm test', 'with the pinned hearsay, as CI does (.github/workflows/bot.yml)'],
      [`BOT_TOKEN=... ${hearsay} start`, 'run it for a real bot'],
    ]),
  ];
}

export function initCommand(): Command {
  return new Command('init')
    .description(
      'create a new bot in DIR (default: the current folder): starter rules and tests, hearsay.yaml, package.json, a CI workflow, a Dockerfile, .gitignore, README.md',
    )
    .argument('[dir]', 'the folder to create the bot in', '.')
    .option('--package <spec>', `how package.json pins hearsay: a path, a tarball URL or a git URL (default: ${DEFAULT_PACKAGE_SPEC}, made with npm pack)`)
    .action(async (dir: string, options: { package?: string }) => {
      const spec = options.package ?? DEFAULT_PACKAGE_SPEC;
      try {
        const project = await writeProject(dir, spec);
        const shown = relative(process.cwd(), project.dir) || '.';
        const lines = [`Created a bot in ${shown}/: ${project.files.join(', ')}`, '', ...nextSteps(shown, spec)];
        process.stdout.write(`${lines.join('\n')}\n`);
        process.exitCode = OK_EXIT_CODE;
      } catch (error) {
        if (!(error instanceof ScaffoldError)) throw error;
        process.stderr.write(`hearsay init: ${error.message}\n`);
        process.exitCode = FAILURE_EXIT_CODE;
      }
    });
}
