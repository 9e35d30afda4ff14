#!/usr/bin/env node
// The hearsay command line: one program with subcommands. Usage errors exit 2, as documented.
import { CommanderError } from 'commander';
import { USAGE_EXIT_CODE } from '../errors/exit-codes.js';
import { buildProgram } from './main-program.js';
import { applyMemoryV8Flags } from './memory-v8-flags.js';
import { redactProcessOutput } from './redacted-output.js';

export async function main(argv: string[] = process.argv): Promise<void> {
  applyMemoryV8Flags();
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
