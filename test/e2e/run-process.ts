// Runs `node <bin> run` (package.json's bin, the bundled CLI) as a real child process for end-to-end tests, capturing every output
// line so tests can wait for a log line and check that no secret was ever printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;

export interface RunProcess {
  child: ChildProcess;
  /** Every stdout and stderr line so far. */
  readonly lines: string[];
  /** Resolves with the first line matching `pattern` (seen before or after the call). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
  exited: Promise<number | null>;
}

export interface StartRunOptions {
  env: Record<string, string>;
  args?: string[];
  cwd?: string;
  /** The program to run instead of `node <bin>` (e.g. the single executable). */
  executable?: string;
  /** A command the program runs under, e.g. `setpriv` with its arguments to run it as another user. */
  wrapper?: string[];
}

export function startRun(options: StartRunOptions): RunProcess {
  const [program, ...prefix] = [...(options.wrapper ?? []), ...(options.executable ? [options.executable] : [process.execPath, cli])];
  const child = spawn(program!, [...prefix, 'run', ...(options.args ?? [])], {
    cwd: options.cwd ?? tmpdir(),
    env: { PATH: process.env.PATH ?? '', HEARSAY_LOG_FORMAT: 'json', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!]) {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts.filter((l) => l !== ''));
      for (const listener of listeners) listener();
    });
    stream.on('end', () => {
      if (buffered) lines.push(buffered);
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForLine = (pattern: RegExp, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = lines.find((l) => pattern.test(l));
        if (line) {
          cleanup();
          resolve(line);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no output line matched ${pattern} within ${timeoutMs} ms; output:\n${lines.join('\n')}`));
      }, timeoutMs);
      const onExit = () =>
        setTimeout(() => {
          check();
          cleanup();
          reject(new Error(`process exited before a line matched ${pattern}; output:\n${lines.join('\n')}`));
        }, 50);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
        child.off('exit', onExit);
      };
      listeners.add(check);
      child.once('exit', onExit);
      check();
    });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return { child, lines, waitForLine, stop, exited };
}

/** What a CLI command that ran to its end printed, and its exit code. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `hearsay <args>` to its end, with only PATH and `env` in its environment (no token leaks in from the test's own). */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One bot's `hearsay run` against the sandbox: its rules and data directory, and the list its runs go on (for the test to stop them). */
export interface BotRunSettings {
  baseUrl: string;
  token: string;
  rulesDir: string;
  dataDir: string;
  running: RunProcess[];
}

/**
 * Starts `hearsay run` for the bot with rate limits off (they are not what these tests look at) and pushes it onto `running`;
 * `env` adds the ingress and the log level.
 */
export function startBotRun(settings: BotRunSettings, env: Record<string, string>, args: string[] = []): RunProcess {
  const run = startRun({
    args,
    env: {
      BOT_TOKEN: settings.token,
      BASE_URL: settings.baseUrl,
      HEARSAY_RULES: settings.rulesDir,
      HEARSAY_DATA_DIR: settings.dataDir,
      HEARSAY_RATE_LIMITS_ENABLED: 'false',
      ...env,
    },
  });
  settings.running.push(run);
  return run;
}

/** What a launcher of one bot's runs needs: the bot, its rules, and where its state is kept. */
export interface BotLauncherSettings extends Omit<BotRunSettings, 'dataDir'> {
  /** The file store's folder, or a function that makes a fresh one for each run (replicas on Redis share none). */
  dataDir: string | (() => Promise<string>);
  /** `HEARSAY_STORE`: a Redis URL; absent, the file store. */
  store?: string;
  /** The configuration file each run is given (`--config`). */
  config?: string;
  /** Further settings of each run. */
  env?: Record<string, string>;
}

/**
 * A launcher of `hearsay run`s of one bot polling the sandbox with info logs and rate limits off, as the crash and
 * replica tests start them again and again: each call starts one (onto `running`) and resolves once it runs.
 */
export function pollingBotLauncher(settings: BotLauncherSettings): () => Promise<RunProcess> {
  return async () => {
    const dataDir = typeof settings.dataDir === 'string' ? settings.dataDir : await settings.dataDir();
    const env = { HEARSAY_POLLING_TIMEOUT: '1', HEARSAY_LOG_LEVEL: 'info', ...(settings.store ? { HEARSAY_STORE: settings.store } : {}), ...settings.env };
    const run = startBotRun({ ...settings, dataDir }, env, settings.config ? ['--config', settings.config] : []);
    await run.waitForLine(/hearsay is running/, 20_000);
    return run;
  };
}

/** Writes `rules` and starts `hearsay run` of the bot polling the sandbox, on a new data directory, pushed onto `running`; resolves once it runs. */
export async function startPollingRun(baseUrl: string, token: string, rules: string, running: RunProcess[]): Promise<RunProcess> {
  const rulesDir = (await writeRules(rules)).dir;
  const dataDir = await mkdtemp(join(tmpdir(), 'hearsay-e2e-data-'));
  const run = startRun({ env: { BOT_TOKEN: token, BASE_URL: baseUrl, HEARSAY_RULES: rulesDir, HEARSAY_POLLING_TIMEOUT: '1', HEARSAY_DATA_DIR: dataDir } });
  running.push(run);
  await run.waitForLine(/hearsay is running/);
  return run;
}

/** The settings of a webhook served on 127.0.0.1:`port` at /hook with `secret`, the address the service is told to deliver to. */
export function webhookEnv(port: number, secret: string): Record<string, string> {
  return {
    HEARSAY_WEBHOOK_URL: `http://127.0.0.1:${port}`,
    HEARSAY_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
    HEARSAY_WEBHOOK_SECRET: secret,
    HEARSAY_WEBHOOK_PATH: '/hook',
  };
}

/** A temp dir with one rule file; returns the dir and the file path (for edits). */
export async function writeRules(yaml: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'hearsay-e2e-rules-'));
  const file = join(dir, 'bot.yaml');
  await writeFile(file, yaml);
  return { dir, file };
}

/** Rules whose fallback answers `<version>: <text>`, so a test can tell which set answered what. */
export function versionedRules(version: string): string {
  return [
    'rules:',
    '  - id: ping',
    '    text: ping',
    '    reply: pong',
    '  - id: greet',
    "    pattern: '^say (?<word>\\w+)$'",
    '    reply: "you said {{match.word}}"',
    '  - id: echo',
    '    fallback: true',
    `    reply: "${version}: {{text}}"`,
    '',
  ].join('\n');
}
