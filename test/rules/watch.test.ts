// Hot reload on real files: good edits are picked up, bad ones keep the last good set, and editors'
// save patterns (temp file + rename, partial writes) never load a half-written file.
import { mkdtemp, rm, writeFile, rename, unlink, open, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RuleWatcher, type ReloadEvent, type ReloadFailedEvent } from '../../src/rules/watch.js';
import { RuleLoadError } from '../../src/diagnostics/problem.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { createLogger } from '../../src/log/logger.js';
import { decideMessage, message, replyText } from '../engine/messages.js';

const ruleFile = (id: string, text: string, reply: string) => `rules:\n  - id: ${id}\n    text: ${text}\n    reply: ${reply}\n`;

let dir: string;
let watcher: RuleWatcher | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-watch-'));
});
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await rm(dir, { recursive: true, force: true });
});

function next(w: RuleWatcher, event: 'reload' | 'reloadFailed'): Promise<ReloadEvent | ReloadFailedEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${event}' event within 5 s`)), 5000);
    w.once(event, (e: ReloadEvent | ReloadFailedEvent) => {
      clearTimeout(timer);
      resolve(e);
    });
  });
}

const answer = (w: RuleWatcher, text: string) => replyText(decideMessage(message(text), w.current, 'bot'));

async function startWith(files: Record<string, string>, debounceMs = 60): Promise<RuleWatcher> {
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  watcher = new RuleWatcher({ path: dir, debounceMs });
  await watcher.start();
  return watcher;
}

describe('RuleWatcher', () => {
  it('refuses to start on broken rules, with every problem', async () => {
    await writeFile(join(dir, 'a.yaml'), 'rules:\n  - id: x\n    txt: hi\n    reply: yo\n');
    watcher = new RuleWatcher({ path: dir });
    const error = await watcher.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuleLoadError);
    expect((error as RuleLoadError).problems.map((p) => `${p.line}:${p.column}`)).toContain('3:5');
  });

  it('leaves a failed first load to the caller to report (each problem once), but logs the warnings of a good one', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    await writeFile(join(dir, 'a.yaml'), 'rules:\n  - id: x\n    txt: hi\n    reply: yo\n');
    watcher = new RuleWatcher({ path: dir, logger });
    expect(await watcher.start().catch((e: unknown) => e)).toBeInstanceOf(RuleLoadError);
    expect(lines.join('')).not.toContain("unknown key 'txt'");
    await watcher.close();

    await writeFile(join(dir, 'a.yaml'), 'rules:\n  - id: x\n    text: hi\n    reply: yo\n  - id: y\n    text: hi\n    reply: again\n');
    watcher = new RuleWatcher({ path: dir, logger });
    await watcher.start();
    expect(lines.join('')).toContain("warning: rule 'y' can never fire");
  });

  it('picks up a good edit, keeps the last good set on a bad edit, then takes the next good edit', async () => {
    const w = await startWith({ '10-a.yaml': ruleFile('a', 'ping', 'pong') });
    expect(answer(w, 'ping')).toBe('pong');

    let reloaded = next(w, 'reload');
    await writeFile(join(dir, '10-a.yaml'), ruleFile('a', 'ping', 'pong v2'));
    expect(await reloaded).toMatchObject({ ruleCount: 1, fileCount: 1 });
    expect(answer(w, 'ping')).toBe('pong v2');

    const failed = next(w, 'reloadFailed');
    await writeFile(join(dir, '10-a.yaml'), 'rules:\n  - id: a\n    text: ping\n    repyl: broken\n');
    const { problems } = (await failed) as ReloadFailedEvent;
    expect(problems.map((p) => p.format())).toContain(`${join(dir, '10-a.yaml')}:4:5: unknown key 'repyl' in rule 'a'; did you mean 'reply'?`);
    expect(answer(w, 'ping')).toBe('pong v2');

    reloaded = next(w, 'reload');
    await writeFile(join(dir, '10-a.yaml'), ruleFile('a', 'ping', 'pong v3'));
    await reloaded;
    expect(answer(w, 'ping')).toBe('pong v3');
  });

  it('notices a new file and a deleted file', async () => {
    const w = await startWith({ '10-a.yaml': ruleFile('a', 'ping', 'pong') });
    let reloaded = next(w, 'reload');
    await writeFile(join(dir, '20-b.yaml'), ruleFile('b', 'marco', 'polo'));
    expect(await reloaded).toMatchObject({ ruleCount: 2, fileCount: 2 });
    expect(answer(w, 'marco')).toBe('polo');

    reloaded = next(w, 'reload');
    await unlink(join(dir, '10-a.yaml'));
    expect(await reloaded).toMatchObject({ ruleCount: 1, fileCount: 1 });
    expect(answer(w, 'ping')).toBeNull();
    expect(answer(w, 'marco')).toBe('polo');
  });

  it('notices a new file created with mode 000 at once (chokidar itself leaves such a file out)', async () => {
    // Whether it can be read depends on who runs the test (root reads it): either way it is not passed over.
    // watch-unreadable.test.ts runs the service as a user who cannot read it.
    const w = await startWith({ '10-a.yaml': ruleFile('a', 'ping', 'pong') });
    const outcome = Promise.race([next(w, 'reload'), next(w, 'reloadFailed')]);
    await writeFile(join(dir, '20-b.yaml'), ruleFile('b', 'marco', 'polo'), { mode: 0o000 });
    if (process.getuid?.() === 0) {
      expect(await outcome).toMatchObject({ ruleCount: 2, fileCount: 2 });
      expect(answer(w, 'marco')).toBe('polo');
    } else {
      const failed = (await outcome) as ReloadFailedEvent;
      expect(failed.problems.map((problem) => problem.format())).toEqual([`${join(dir, '20-b.yaml')}: cannot read the file: permission denied`]);
      expect(answer(w, 'ping')).toBe('pong');
    }
  });

  it('loads an atomic save (write a temp file, then rename it over the rule file)', async () => {
    const w = await startWith({ 'bot.yaml': ruleFile('a', 'ping', 'pong') });
    const reloaded = next(w, 'reload');
    await writeFile(join(dir, '.bot.yaml.swp'), 'garbage: [');
    await writeFile(join(dir, 'bot.yaml.tmp'), ruleFile('a', 'ping', 'renamed'));
    await rename(join(dir, 'bot.yaml.tmp'), join(dir, 'bot.yaml'));
    await reloaded;
    expect(answer(w, 'ping')).toBe('renamed');
  });

  it('waits for several quick partial writes to finish before loading', async () => {
    // The debounce is what bridges the pauses between writes; it is set well above the 5 ms pauses so
    // that a busy machine (a late timer) does not turn one pause into a half-file load.
    const w = await startWith({ 'bot.yaml': ruleFile('a', 'ping', 'pong') }, 400);
    let failures = 0;
    let reloads = 0;
    w.on('reloadFailed', () => failures++);
    w.on('reload', () => reloads++);
    const reloaded = next(w, 'reload');
    const content = ruleFile('a', 'ping', 'written in pieces') + ruleFile('b', 'marco', 'polo').replace('rules:\n', '');
    const handle = await open(join(dir, 'bot.yaml'), 'w');
    for (let i = 0; i < content.length; i += 12) {
      await handle.write(content.slice(i, i + 12));
      await new Promise((r) => setTimeout(r, 5));
    }
    await handle.close();
    await reloaded;
    expect(answer(w, 'ping')).toBe('written in pieces');
    expect(answer(w, 'marco')).toBe('polo');
    expect(failures).toBe(0);
    expect(reloads).toBe(1);
  });

  it('follows a Kubernetes-style symlink swap of ..data', async () => {
    await mkdir(join(dir, '..v1'));
    await writeFile(join(dir, '..v1', 'bot.yaml'), ruleFile('a', 'ping', 'v1'));
    await symlink('..v1', join(dir, '..data'));
    await symlink(join('..data', 'bot.yaml'), join(dir, 'bot.yaml'));
    watcher = new RuleWatcher({ path: dir, debounceMs: 60 });
    await watcher.start();
    expect(answer(watcher, 'ping')).toBe('v1');

    const reloaded = next(watcher, 'reload');
    await mkdir(join(dir, '..v2'));
    await writeFile(join(dir, '..v2', 'bot.yaml'), ruleFile('a', 'ping', 'v2'));
    await symlink('..v2', join(dir, '..data_tmp'));
    await rename(join(dir, '..data_tmp'), join(dir, '..data'));
    await reloaded;
    expect(answer(watcher, 'ping')).toBe('v2');
  });

  it('reload() swaps on demand (SIGHUP) and keeps the set a caller already holds unchanged', async () => {
    const w = await startWith({ 'bot.yaml': ruleFile('a', 'ping', 'pong') });
    const held = w.current;
    await w.close(); // stop watching, so only the explicit reload below happens
    watcher = new RuleWatcher({ path: dir, debounceMs: 10_000 });
    await watcher.start();
    const before = watcher.current;
    await writeFile(join(dir, 'bot.yaml'), ruleFile('a', 'ping', 'after sighup'));
    expect(await watcher.reload()).toBe(true);
    expect(answer(watcher, 'ping')).toBe('after sighup');
    expect(replyText(decideMessage(message('ping'), before, 'bot'))).toBe('pong');
    expect(replyText(decideMessage(message('ping'), held, 'bot'))).toBe('pong');
    await writeFile(join(dir, 'bot.yaml'), 'rules: [');
    expect(await watcher.reload()).toBe(false);
    expect(answer(watcher, 'ping')).toBe('after sighup');
  });

  it('reuses the patterns it validated before when it reloads, and a second watcher keeps its own', async () => {
    const patternRule = 'rules:\n  - id: order\n    pattern: order (\\d+)\n    reply: "order {{match.1}}"\n';
    const w = await startWith({ '10-order.yaml': patternRule, '20-a.yaml': ruleFile('a', 'ping', 'pong') }, 10_000);
    const patternOf = (ruleSet: RuleSet) => (ruleSet.rules[0]!.trigger as { pattern?: unknown }).pattern;
    const before = patternOf(w.current);
    const other = new RuleWatcher({ path: dir, debounceMs: 10_000 });
    try {
      expect(patternOf(await other.start())).not.toBe(before);
    } finally {
      await other.close();
    }
    await writeFile(join(dir, '20-a.yaml'), ruleFile('a', 'ping', 'pong v2'));
    expect(await w.reload()).toBe(true);
    expect(answer(w, 'ping')).toBe('pong v2');
    expect(answer(w, 'order 7')).toBe('order 7');
    expect(patternOf(w.current)).toBe(before);
  });
});
