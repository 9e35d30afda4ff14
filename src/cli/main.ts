#!/usr/bin/env node
// The hearsay command line: one program with subcommands. Usage errors exit 2, as documented.
import { Command, CommanderError } from 'commander';
import { VERSION } from '../generated/version.js';
import { checkCommand } from './commands/check.js';
import { initCommand } from './commands/init.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { sandboxCommand } from './commands/sandbox.js';
import { startCommand } from './commands/start.js';
import { testCommand } from './commands/test.js';
import { stateCommand } from './commands/state.js';
import { USAGE_EXIT_CODE } from '../errors/exit-codes.js';
import { redactProcessOutput } from './redacted-output.js';

export function buildProgram(): Command {
  const program = new Command('hearsay')
    .description('A config-driven chat bot engine: YAML rules in, Bot API replies out.')
    .version(VERSION, '-v, --version', 'print the version')
    .showHelpAfterError("(run 'hearsay --help' for usage)")
    .exitOverride();
  for (const command of [runCommand(), checkCommand(), testCommand(), sandboxCommand(), startCommand(), initCommand(), stateCommand(), reportCommand()]) {
    // Name the command, so the hint can be copied as it is.
    program.addCommand(command.exitOverride().showHelpAfterError(`(run 'hearsay ${command.name()} --help' for usage)`));
  }
  return program;
}

export async function main(argv: string[] = process.argv): Promise<void> {
  redactProcessOutput();
  // `hearsay --help | head` closes the pipe early; that is not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through exitOverride too, with exit code 0.
      process.exitCode = error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
      return;
    }
    throw error;
  }
}

// No top-level await: the single-executable build bundles this file as CommonJS.
main().catch((error: unknown) => {
  process.stderr.write(`hearsay: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
