// How `hearsay state show|forget` reaches a running instance: only the instance that holds the lock writes
// its journal, so the command leaves a request file in the bot's state directory and the instance answers
// it with a response file. Both are written to a temporary name and renamed, so neither side ever reads a
// half-written file. Without a running instance the command takes the lock and works on the store itself.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { isBroadcastRequest, type BroadcastRequest } from '../../pipeline/broadcasts.js';

/** The directory of requests and responses inside the bot's state directory. */
export const REQUESTS_DIR = 'state-requests';

/** What `hearsay state` asks for. */
export interface UserStateRequest {
  readonly op: 'show' | 'forget';
  readonly userId: number;
}

/** What a command asks for: a user's state (`hearsay state`), or a broadcast (`hearsay broadcast`). */
export type StateRequest = UserStateRequest | BroadcastRequest;

/** The answer: the user's state (before forgetting it, for forget), or why the request failed. */
export type StateResponse = { readonly ok: true; readonly state: unknown } | { readonly ok: false; readonly error: string };

function writeAtomically(path: string, value: unknown): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(value));
  renameSync(temporary, path);
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isRequest(value: unknown): value is StateRequest {
  const v = value as Partial<UserStateRequest> | null;
  if (isBroadcastRequest(value)) return true;
  return v !== null && typeof v === 'object' && (v.op === 'show' || v.op === 'forget') && Number.isSafeInteger(v.userId);
}

/**
 * Serves the requests of `stateDir` with `handle` until closed: those already waiting at once, new ones as
 * they appear (a directory watch, with a periodic scan in case a watch event is missed).
 */
export class StateRequestServer {
  private readonly dir: string;
  private readonly watcher: FSWatcher | null;
  private readonly interval: NodeJS.Timeout;
  private scanning: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(
    stateDir: string,
    private readonly handle: (request: StateRequest) => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
    scanEveryMs = 1000,
  ) {
    this.dir = join(stateDir, REQUESTS_DIR);
    mkdirSync(this.dir, { recursive: true });
    let watcher: FSWatcher | null = null;
    try {
      watcher = watch(this.dir, () => this.scan());
      watcher.on('error', () => undefined);
      // Serving requests must never keep a stopping process alive.
      watcher.unref();
    } catch {
      // Some file systems cannot be watched: the periodic scan still serves them.
    }
    this.watcher = watcher;
    this.interval = setInterval(() => this.scan(), scanEveryMs);
    this.interval.unref();
    this.scan();
  }

  /** Looks for requests now (one scan at a time; a call during a scan runs one more after it). */
  scan(): void {
    if (this.closed) return;
    if (this.scanning) {
      this.again = true;
      return;
    }
    this.scanning = this.serveWaiting()
      .catch(this.onError)
      .finally(() => {
        this.scanning = null;
        if (this.again) {
          this.again = false;
          this.scan();
        }
      });
  }

  private async serveWaiting(): Promise<void> {
    for (const name of readdirSync(this.dir)) {
      if (this.closed || !name.endsWith('.req.json')) continue;
      const path = join(this.dir, name);
      const request = readJson(path);
      rmSync(path, { force: true });
      const responsePath = join(this.dir, name.replace(/\.req\.json$/, '.res.json'));
      let response: StateResponse;
      if (!isRequest(request)) response = { ok: false, error: 'malformed request' };
      else {
        try {
          response = { ok: true, state: await this.handle(request) };
        } catch (error) {
          response = { ok: false, error: error instanceof Error ? error.message : String(error) };
        }
      }
      writeAtomically(responsePath, response);
    }
  }

  /** Stops serving; a scan in progress finishes its current request. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.interval);
    this.watcher?.close();
    await this.scanning;
  }
}

/** The running instance did not answer in time (it may be stopping, or stuck). */
export class NoAnswerError extends Error {
  override readonly name = 'NoAnswerError';
}

/**
 * Leaves a request for the instance running on `stateDir` and waits for its answer (checking every
 * `pollMs`), at most `timeoutMs`; the request is withdrawn when no answer came.
 */
export async function askRunningInstance(stateDir: string, request: StateRequest, timeoutMs = 10_000, pollMs = 25): Promise<StateResponse> {
  const dir = join(stateDir, REQUESTS_DIR);
  mkdirSync(dir, { recursive: true });
  const id = randomUUID();
  const requestPath = join(dir, `${id}.req.json`);
  const responsePath = join(dir, `${id}.res.json`);
  writeAtomically(requestPath, request);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const response = readJson(responsePath) as StateResponse | undefined;
      if (response !== undefined) return response;
      if (Date.now() >= deadline) throw new NoAnswerError(`the running instance did not answer within ${Math.round(timeoutMs / 1000)} s`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  } finally {
    rmSync(requestPath, { force: true });
    rmSync(responsePath, { force: true });
  }
}
