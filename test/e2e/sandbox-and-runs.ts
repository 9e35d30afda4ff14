// The sandbox a test file's `hearsay run` processes talk to, started before its tests, and the clean-up after them:
// every run still alive is killed, then the sandbox is closed.
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import type { RunProcess } from './run-process.js';

/** The started sandbox (set once `beforeAll` has run) and the runs the tests push, to be killed at the end. */
export interface SandboxAndRuns {
  sandbox: StartedSandbox;
  readonly running: RunProcess[];
}

/** Registers, in the calling `describe` block, the hooks that start the sandbox and, after all its tests, kill the runs and close it. */
export function sandboxAndRuns(options?: SandboxOptions): SandboxAndRuns {
  const state = { running: [] as RunProcess[] } as SandboxAndRuns;
  beforeAll(async () => {
    state.sandbox = await startSandbox(options);
  });
  afterAll(async () => {
    await Promise.all(state.running.map((p) => p.stop('SIGKILL')));
    await state.sandbox?.close();
  });
  return state;
}
