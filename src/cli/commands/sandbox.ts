// Placeholder until the 'sandbox' command lands; replaced by its own module.
import { Command } from 'commander';

export function sandboxCommand(): Command {
  return new Command('sandbox').description('(not built yet)').action(() => {
    process.stderr.write('hearsay sandbox: not built yet\n');
    process.exitCode = 1;
  });
}
