// Keeps the live rule set in step with the rule directory: watches the directory (editors save via a
// temp file and rename; Kubernetes swaps a `..data` symlink) and the media files the rules send, debounces
// bursts of events, builds the complete new set and swaps it in with one assignment. A failed reload keeps
// the last good set.
// The watch follows the path, not the inode: a directory renamed into place, a parent symlink pointed
// elsewhere or a directory deleted and made again is noticed (the path's identity is checked every second
// and on every reload) and watched anew.
//
// Callers read `current` once per message and use that set until the message is answered, so a
// reload in the middle of matching never mixes two rule sets.
import { EventEmitter } from 'node:events';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from '../log/logger.js';
import type { RuleSet } from '../engine/rule-set.js';
import type { RuleEnvironment } from '../engine/compile-reach.js';
import { isRuleFileName, RuleLoader, type RuleLimits } from './load.js';
import { RuleLoadError, type RuleProblem } from '../diagnostics/problem.js';
import { MediaWatch } from './media-watch.js';

export interface RuleWatcherOptions {
  /** A rule directory or a single rule file. */
  path: string;
  logger?: Logger;
  /** Quiet time after the last file event before reloading. */
  debounceMs?: number;
  /** How often the path's identity (real path, device and inode) is checked for a swap. */
  identityCheckMs?: number;
  /** Rule file size and rule count limits. */
  limits?: RuleLimits;
  /** What the configuration declares for the rules to name (chats); checked on every load. */
  environment?: RuleEnvironment;
}

export interface ReloadEvent {
  ruleCount: number;
  fileCount: number;
  durationMs: number;
}

export interface ReloadFailedEvent {
  problems: RuleProblem[];
}

export interface RuleWatcherEvents {
  reload: [ReloadEvent];
  reloadFailed: [ReloadFailedEvent];
}

export class RuleWatcher extends EventEmitter<RuleWatcherEvents> {
  private readonly path: string;
  private readonly logger: Logger | undefined;
  private readonly debounceMs: number;
  private ruleSet: RuleSet | undefined;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly identityCheckMs: number;
  private readonly limits: RuleLimits | undefined;
  private readonly environment: RuleEnvironment | undefined;
  // Lives as long as the watcher: a reload reuses the unchanged files and patterns of the previous load.
  private readonly loader = new RuleLoader();
  /** What the watcher is attached to: a swap changes it. */
  private watched: string | undefined;
  private identityTimer: NodeJS.Timeout | undefined;
  private rewatching: Promise<void> = Promise.resolve();
  /** The files the rules send, wherever they are: an edited photo reloads the rules (and is uploaded anew). */
  private readonly media: MediaWatch;

  constructor({ path, logger, debounceMs = 150, identityCheckMs = 1000, limits, environment }: RuleWatcherOptions) {
    super();
    this.path = resolve(path);
    this.logger = logger;
    this.debounceMs = debounceMs;
    this.identityCheckMs = identityCheckMs;
    this.limits = limits;
    this.environment = environment;
    this.media = new MediaWatch(() => this.schedule(), logger);
  }

  /** Loads the rules and starts watching; throws RuleLoadError when the first load fails. */
  async start(): Promise<RuleSet> {
    const started = performance.now();
    const outcome = await this.loader.load(this.path, this.limits, this.environment);
    // A failed first load is not logged here: the error carries every problem and the caller reports
    // them once (the CLI on stderr), instead of each appearing twice on a terminal.
    if (!outcome.ruleSet) throw new RuleLoadError(outcome.problems);
    this.logProblems(outcome.problems);
    this.ruleSet = outcome.ruleSet;
    this.logger?.info({ rules: outcome.ruleSet.rules.length, files: outcome.files.length, durationMs: round(performance.now() - started) }, 'rules loaded');

    await this.watch();
    await this.media.update(outcome.mediaPaths);
    this.identityTimer = setInterval(() => void this.followSwap(), this.identityCheckMs);
    this.identityTimer.unref();
    return this.ruleSet;
  }

  /** `real path|device|inode` of the rules path, or null while it does not exist. */
  private async identity(): Promise<string | null> {
    try {
      const real = await realpath(this.path);
      const info = await stat(real);
      return `${real}|${info.dev}|${info.ino}`;
    } catch {
      return null;
    }
  }

  /** Watches the directory the path names now (again, after a swap). */
  private async watch(): Promise<void> {
    const identity = await this.identity();
    await this.watcher?.close();
    this.watcher = undefined;
    this.watched = identity ?? undefined;
    if (identity === null || this.closed) return;
    const isDirectory = (await stat(this.path)).isDirectory();
    const directory = isDirectory ? this.path : dirname(this.path);
    const onlyFile = isDirectory ? undefined : basename(this.path);
    const relevant = (path: string) => {
      const name = basename(path);
      if (resolve(path) === directory) return false;
      // `..data` and friends: Kubernetes' atomic symlink swap of a mounted ConfigMap.
      if (name.startsWith('..')) return true;
      return onlyFile === undefined ? isRuleFileName(name) : name === onlyFile;
    };
    const watcher = watch(directory, { ignoreInitial: true, depth: 0, followSymlinks: false, persistent: true });
    this.watcher = watcher;
    watcher.on('all', (_event, path) => {
      if (relevant(path)) this.schedule();
    });
    // chokidar leaves out a file whose owner may not read it (mode 000): one that appears so (or is made so
    // before chokidar looks) gets no `add`. The raw events of its fs.watch still name the file, and the
    // reload then reports it as a problem instead of leaving its rules silently absent. (A chmod of a file
    // already watched is an `unlink` to chokidar, and back an `add`: both reload.)
    watcher.on('raw', (_event, name, details) => {
      const watchedPath = resolve((details as { watchedPath: string }).watchedPath);
      const path = watchedPath !== directory ? watchedPath : typeof name === 'string' ? join(directory, name) : undefined;
      if (path === undefined || relevant(path)) this.schedule();
    });
    watcher.on('error', (error) => this.logger?.warn({ err: error }, 'watching the rules failed'));
    await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  }

  /** Re-attaches the watch and reloads when the path now names another directory (or came back). */
  private followSwap(): Promise<void> {
    this.rewatching = this.rewatching.then(async () => {
      if (this.closed) return;
      const identity = await this.identity();
      if (identity === (this.watched ?? null)) return;
      this.logger?.info({ path: this.path }, identity === null ? 'the rules path is gone; keeping the rules' : 'the rules path was replaced; watching it anew');
      await this.watch();
      if (identity !== null) this.schedule();
      else void this.reload();
    });
    return this.rewatching;
  }

  /** The live rule set; read it once per message. */
  get current(): RuleSet {
    if (!this.ruleSet) throw new Error('RuleWatcher: start() has not loaded the rules yet');
    return this.ruleSet;
  }

  /** Reloads now (e.g. on SIGHUP); resolves true when a new set was swapped in. */
  reload(): Promise<boolean> {
    const next = this.queue.then(() => this.reloadNow());
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.identityTimer) clearInterval(this.identityTimer);
    await this.rewatching;
    await this.watcher?.close();
    await this.queue;
    await this.media.close();
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.reload();
    }, this.debounceMs);
  }

  private async reloadNow(): Promise<boolean> {
    if (this.closed) return false;
    // A reload on demand (SIGHUP) also re-attaches the watch if the directory was swapped meanwhile.
    void this.followSwap();
    const started = performance.now();
    const outcome = await this.loader.load(this.path, this.limits, this.environment);
    const durationMs = round(performance.now() - started);
    // Also after a failed reload: a missing file that appears then makes the next one succeed.
    await this.media.update(outcome.mediaPaths);
    this.logProblems(outcome.problems);
    if (!outcome.ruleSet) {
      this.logger?.error(
        { errors: outcome.problems.filter((p) => p.severity === 'error').length, durationMs },
        'rule reload failed; keeping the previous rules',
      );
      this.emit('reloadFailed', { problems: outcome.problems });
      return false;
    }
    this.ruleSet = outcome.ruleSet; // the one-step swap
    const event = { ruleCount: outcome.ruleSet.rules.length, fileCount: outcome.files.length, durationMs };
    this.logger?.info({ rules: event.ruleCount, files: event.fileCount, durationMs }, 'rules reloaded');
    this.emit('reload', event);
    return true;
  }

  private logProblems(problems: readonly RuleProblem[]): void {
    for (const problem of problems) {
      if (problem.severity === 'error') this.logger?.error(problem.format());
      else this.logger?.warn(problem.format());
    }
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
