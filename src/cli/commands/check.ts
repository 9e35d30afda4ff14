// Placeholder until the 'check' command lands; replaced by its own module.
import { Command } from 'commander';

export function checkCommand(): Command {
  return new Command('check').description('(not built yet)').action(() => {
    process.stderr.write('hearsay check: not built yet\n');
    process.exitCode = 1;
  });
}
