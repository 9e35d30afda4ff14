// Hot reload for the files the rules send: watches exactly the local media paths of the latest load (found or
// missing, wherever they are, a `media/` folder next to the rules as a rule) and calls back on any change, so
// an edited photo is uploaded anew and a file that appears makes a failed reload succeed.
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from '../log/logger.js';

export class MediaWatch {
  private watcher: FSWatcher | undefined;
  private watched = new Set<string>();
  private closed = false;

  constructor(
    private readonly onChange: () => void,
    private readonly logger?: Logger,
  ) {}

  /** Watches `paths` from now on (and no others). */
  async update(paths: readonly string[]): Promise<void> {
    if (this.closed) return;
    const next = new Set(paths);
    if (next.size === this.watched.size && [...next].every((path) => this.watched.has(path))) return;
    if (next.size === 0) {
      await this.stop();
      return;
    }
    if (!this.watcher) {
      const watcher = watch([...next], { ignoreInitial: true, persistent: true });
      this.watcher = watcher;
      watcher.on('all', () => this.onChange());
      watcher.on('error', (error) => this.logger?.warn({ err: error }, 'watching the media files failed'));
      await new Promise<void>((ready) => watcher.once('ready', () => ready()));
    } else {
      const removed = [...this.watched].filter((path) => !next.has(path));
      const added = [...next].filter((path) => !this.watched.has(path));
      if (removed.length > 0) this.watcher.unwatch(removed);
      if (added.length > 0) this.watcher.add(added);
    }
    this.watched = next;
  }

  /** Stops watching for good. */
  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  private async stop(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = undefined;
    this.watched = new Set();
    await watcher?.close();
  }
}
