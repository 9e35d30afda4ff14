// Test support: spawns `hearsay start` from dist/, collects its output, finds the logged chat page and bot,
// and stops it with a signal.
import { spawn, type ChildProcess } from 'node:child_process';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;

export interface StartedDemo {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Runs `hearsay start` from dist/, or `executable start` (the single executable) when given. */
export function spawnStart(args: string[], { env, cwd, executable }: { env: NodeJS.ProcessEnv; cwd: string; executable?: string }): StartedDemo {
  const child =
    executable === undefined
      ? spawn(process.execPath, [cli, 'start', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(executable, ['start', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

const HEARSAY_VARIABLES = new Set(['BOT_TOKEN', 'BOT_TOKEN_FILE', 'BASE_URL']);

/** An environment without any token or hearsay setting, as on a fresh machine (vitest sets BASE_URL=/). */
export function tokenFreeEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (HEARSAY_VARIABLES.has(name) || name.startsWith('HEARSAY_')) delete env[name];
  return env;
}

/** Waits for a JSON log line with `msg` matching, and returns it parsed. */
export async function waitForLogLine(demo: StartedDemo, msg: RegExp, timeoutMs = 15_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Only complete lines: the last one may still be arriving.
    for (const line of demo.output().split('\n').slice(0, -1)) {
      if (!line.startsWith('{')) continue;
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (typeof parsed.msg === 'string' && msg.test(parsed.msg)) return parsed;
    }
    if (Date.now() > deadline || demo.child.exitCode !== null) throw new Error(`no log line matching ${msg}; output:\n${demo.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
