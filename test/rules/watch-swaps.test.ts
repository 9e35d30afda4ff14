// Hot reload follows the rules path, not the directory it first named: a directory renamed into place, a
// parent symlink pointed at another directory, a directory deleted and made again are each picked up (and
// edits after them too), every time; reload() (SIGHUP) reloads every time it is asked.
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RuleWatcher, type ReloadEvent, type ReloadFailedEvent } from '../../src/rules/watch.js';
import { decideMessage, message, replyText } from '../engine/messages.js';

const ruleFile = (reply: string) => `rules:\n  - id: a\n    text: ping\n    reply: ${reply}\n`;

let root: string;
let watcher: RuleWatcher | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearsay-swap-'));
});
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await rm(root, { recursive: true, force: true });
});

function next(w: RuleWatcher, event: 'reload' | 'reloadFailed'): Promise<ReloadEvent | ReloadFailedEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${event}' event within 8 s`)), 8000);
    w.once(event, (e: ReloadEvent | ReloadFailedEvent) => {
      clearTimeout(timer);
      resolve(e);
    });
  });
}

const answer = (w: RuleWatcher) => replyText(decideMessage(message('ping'), w.current, 'bot'));

async function rulesDir(name: string, reply: string): Promise<string> {
  await mkdir(join(root, name), { recursive: true });
  await writeFile(join(root, name, 'bot.yaml'), ruleFile(reply));
  return join(root, name);
}

/** Waits until the watcher answers `reply` (a swap may take a reload or two to settle). */
async function answers(w: RuleWatcher, reply: string): Promise<void> {
  await expect.poll(() => answer(w), { timeout: 8000, interval: 50 }).toBe(reply);
}

describe('RuleWatcher follows the path', () => {
  it('picks up a directory renamed into place, twice, and edits inside the new one', async () => {
    const live = await rulesDir('rules', 'v1');
    watcher = new RuleWatcher({ path: live, debounceMs: 50, identityCheckMs: 100 });
    await watcher.start();
    for (const version of ['v2', 'v3']) {
      await rulesDir(`staged-${version}`, version);
      await rename(live, join(root, `old-${version}`));
      await rename(join(root, `staged-${version}`), live);
      await answers(watcher, version);
    }
    await writeFile(join(live, 'bot.yaml'), ruleFile('edited after the swaps'));
    await answers(watcher, 'edited after the swaps');
  });

  it('picks up a parent symlink pointed at another directory, and edits there', async () => {
    await rulesDir('releases/1/rules', 'one');
    await rulesDir('releases/2/rules', 'two');
    await symlink(join(root, 'releases/1'), join(root, 'current'));
    watcher = new RuleWatcher({ path: join(root, 'current/rules'), debounceMs: 50, identityCheckMs: 100 });
    await watcher.start();
    expect(answer(watcher)).toBe('one');
    await symlink(join(root, 'releases/2'), join(root, 'current.tmp'));
    await rename(join(root, 'current.tmp'), join(root, 'current'));
    await answers(watcher, 'two');
    await writeFile(join(root, 'releases/2/rules/bot.yaml'), ruleFile('two, edited'));
    await answers(watcher, 'two, edited');
  });

  it('keeps the rules while the directory is gone (reporting it), and loads it when it is made again', async () => {
    const live = await rulesDir('rules', 'first');
    watcher = new RuleWatcher({ path: live, debounceMs: 50, identityCheckMs: 100 });
    await watcher.start();
    const failed = next(watcher, 'reloadFailed');
    await rm(live, { recursive: true });
    expect(((await failed) as ReloadFailedEvent).problems.map((p) => p.message)).toEqual(['cannot read the rules: no such file or directory']);
    expect(answer(watcher)).toBe('first');
    await rulesDir('rules', 'recreated');
    await answers(watcher, 'recreated');
    await writeFile(join(live, 'bot.yaml'), ruleFile('recreated, edited'));
    await answers(watcher, 'recreated, edited');
  });

  it('reload() (SIGHUP) reloads every time, also after the directory was swapped', async () => {
    const live = await rulesDir('rules', 'v0');
    // No automatic reloads get in the way: only the explicit ones below.
    watcher = new RuleWatcher({ path: live, debounceMs: 60_000, identityCheckMs: 60_000 });
    await watcher.start();
    for (let i = 1; i <= 4; i++) {
      await rulesDir(`staged-${i}`, `v${i}`);
      await rename(live, join(root, `old-${i}`));
      await rename(join(root, `staged-${i}`), live);
      expect(await watcher.reload()).toBe(true);
      expect(answer(watcher)).toBe(`v${i}`);
    }
  });
});
