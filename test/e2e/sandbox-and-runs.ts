// The sandbox a test file's `hearsay run` processes talk to, started before its tests, and the clean-up of the runs
// (killed after each test or after the last) and of the sandbox (closed after the last test).
import { afterAll, afterEach, beforeAll } from 'vitest';
import { clearFaults, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import type { RunProcess } from './run-process.js';

/** The sandbox (usable from the tests and hooks on) and the list the tests push their runs onto, for the clean-up to kill. */
export interface SandboxAndRuns {
  readonly sandbox: StartedSandbox;
  readonly running: RunProcess[];
}

/** When the clean-up kills the runs (by default after the last test), and whether it also drops the sandbox's fault rules then. */
export interface RunCleanUp {
  /** Kill the runs after every test, so that each test starts from none running. */
  afterEachTest?: boolean;
  /** After every test, also drop the fault rules a test left in the sandbox. */
  clearFaultsAfterEachTest?: boolean;
}

/** Registers, in the calling `describe` block, the hooks that start the sandbox, kill the runs and close the sandbox. */
export function sandboxAndRuns(options?: SandboxOptions, cleanUp: RunCleanUp = {}): SandboxAndRuns {
  let started: StartedSandbox | undefined;
  const current = (): StartedSandbox => {
    if (!started) throw new Error('the sandbox starts in beforeAll: use it from a test or a hook');
    return started;
  };
  // Stands for the sandbox before it exists, so that a describe block can name it once; every read goes to the started one.
  const sandbox: StartedSandbox = {
    get baseUrl() {
      return current().baseUrl;
    },
    get sandbox() {
      return current().sandbox;
    },
    close: () => current().close(),
  };
  const running: RunProcess[] = [];
  const killRuns = () => Promise.all(running.splice(0).map((run) => run.stop('SIGKILL')));

  beforeAll(async () => {
    started = await startSandbox(options);
  });
  if (cleanUp.afterEachTest || cleanUp.clearFaultsAfterEachTest) {
    afterEach(async () => {
      if (cleanUp.afterEachTest) await killRuns();
      if (cleanUp.clearFaultsAfterEachTest) await clearFaults(current().baseUrl);
    });
  }
  afterAll(async () => {
    await killRuns();
    await started?.close();
  });
  return { sandbox, running };
}
