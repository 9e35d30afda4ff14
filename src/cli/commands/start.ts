// Placeholder until the 'start' command lands; replaced by its own module.
import { Command } from 'commander';

export function startCommand(): Command {
  return new Command('start').description('(not built yet)').action(() => {
    process.stderr.write('hearsay start: not built yet\n');
    process.exitCode = 1;
  });
}
