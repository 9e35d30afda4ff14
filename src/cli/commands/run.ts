// Placeholder until the 'run' command lands; replaced by its own module.
import { Command } from 'commander';

export function runCommand(): Command {
  return new Command('run').description('(not built yet)').action(() => {
    process.stderr.write('hearsay run: not built yet\n');
    process.exitCode = 1;
  });
}
