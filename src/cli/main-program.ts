// The hearsay program: its commands, its version flag and its help (with every flag of every command), apart
// from main.ts so tests can look at the commands without running the CLI.
import { Command } from 'commander';
import { VERSION } from '../generated/version.js';
import { broadcastCommand } from './commands/broadcast.js';
import { chatCommand } from './commands/chat.js';
import { checkCommand } from './commands/check.js';
import { initCommand } from './commands/init.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { sandboxCommand } from './commands/sandbox.js';
import { startCommand } from './commands/start.js';
import { testCommand } from './commands/test.js';
import { stateCommand } from './commands/state.js';
import { flagsOverview } from './help-overview.js';

/** The program with every command, ready to parse (errors end through exitOverride). */
export function buildProgram(): Command {
  const program = new Command('hearsay')
    .description('A config-driven chat bot engine: YAML rules in, Bot API replies out.')
    .version(VERSION, '-v, --version', 'print the version')
    .showHelpAfterError("(run 'hearsay --help' for usage)")
    .exitOverride();
  for (const command of [
    runCommand(),
    checkCommand(),
    testCommand(),
    sandboxCommand(),
    startCommand(),
    chatCommand(),
    initCommand(),
    stateCommand(),
    broadcastCommand(),
    reportCommand(),
  ]) {
    // Name the command, so the hint can be copied as it is.
    program.addCommand(command.exitOverride().showHelpAfterError(`(run 'hearsay ${command.name()} --help' for usage)`));
  }
  program.addHelpText('after', () => flagsOverview(program));
  return program;
}
