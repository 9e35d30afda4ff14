// The journal and the webhook inbox on disk: what a restart reads back, torn last lines after a crash,
// compaction once the offset is confirmed, and a bounded size when no offset ever is (webhook mode).
import { readFileSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Update } from '../../src/api/types.js';
import { JOURNAL_FILE, UpdateJournal, botStateDir } from '../../src/store/file/update-journal.js';
import { INBOX_FILE, WebhookInbox } from '../../src/store/file/webhook-inbox.js';
import { capturingLogger } from '../support/log-capture.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'hearsay-journal-'));
const update = (id: number): Update =>
  ({ update_id: id, message: { message_id: id, date: 1, chat: { id: 1, type: 'private', first_name: 'A' }, text: `t${id}` } }) as Update;

describe('UpdateJournal', () => {
  it('remembers handled ids across a restart and names the replies that were in doubt', async () => {
    const dir = await tempDir();
    const { logger } = capturingLogger();
    const first = UpdateJournal.open({ dir, logger });
    for (const id of [1, 2, 3]) {
      first.begin(id);
      await first.add(id);
    }
    await first.begin(4); // killed while sending 4: no close, no `d 4`
    const { logger: log2, lines } = capturingLogger();
    const second = UpdateJournal.open({ dir, logger: log2 });
    expect([1, 2, 3].map((id) => second.has(id))).toEqual([true, true, true]);
    expect(second.has(4)).toBe(false);
    expect(second.inDoubt).toEqual([4]);
    expect(lines.join('')).toMatch(/"in_doubt":\[4\]/);
  });

  it('ignores a torn last line, with a warning, and keeps appending cleanly', async () => {
    const dir = await tempDir();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, JOURNAL_FILE), 'c 0\nd 5\nd 6\nd 7');
    const { logger, lines } = capturingLogger();
    const journal = UpdateJournal.open({ dir, logger });
    expect([journal.has(5), journal.has(6), journal.has(7)]).toEqual([true, true, false]);
    expect(lines.join('')).toMatch(/"level":40.*torn line/);
    await journal.add(8);
    const reopened = UpdateJournal.open({ dir, logger: capturingLogger().logger });
    expect([reopened.has(6), reopened.has(7), reopened.has(8)]).toEqual([true, false, true]);
  });

  it('forgets ids below the confirmed offset and compacts the file', async () => {
    const dir = await tempDir();
    const journal = UpdateJournal.open({ dir, logger: capturingLogger().logger, compactAfterLines: 100 });
    for (let id = 1; id <= 500; id++) {
      journal.begin(id);
      await journal.add(id);
      if (id % 50 === 0) journal.confirmBelow(id - 9);
    }
    const size = (await stat(join(dir, JOURNAL_FILE))).size;
    expect(journal.size).toBeLessThan(60);
    expect(size).toBeLessThan(2000);
    // Forgotten below the confirmed offset: only an id remembered exactly counts as handled.
    expect(journal.has(3)).toBe(false);
    await journal.close();
    const text = await readFile(join(dir, JOURNAL_FILE), 'utf8');
    expect(text.split('\n')[0]).toBe('c 491');
  });

  it('stays bounded without confirmed offsets (webhook mode)', async () => {
    const dir = await tempDir();
    const journal = UpdateJournal.open({ dir, logger: capturingLogger().logger, capacity: 100 });
    for (let id = 1; id <= 1000; id++) await journal.add(id);
    expect(journal.size).toBeLessThanOrEqual(200);
    expect(journal.has(1000)).toBe(true);
    expect((await stat(join(dir, JOURNAL_FILE))).size).toBeLessThan(4000);
  });

  it('compacts while fdatasyncs are in flight without failing any add', async () => {
    const dir = await tempDir();
    const journal = UpdateJournal.open({ dir, logger: capturingLogger().logger, capacity: 10 });
    await expect(Promise.all(Array.from({ length: 500 }, (_, i) => journal.add(i + 1)))).resolves.toHaveLength(500);
    expect(journal.has(500)).toBe(true);
    await journal.close();
    const reopened = UpdateJournal.open({ dir, logger: capturingLogger().logger, capacity: 10 });
    expect(reopened.has(500)).toBe(true);
    expect(reopened.has(499)).toBe(true);
  });

  it('completes many concurrent adds (one group commit after another) and keeps one directory per bot', async () => {
    const dataDir = await tempDir();
    const a = UpdateJournal.open({ dir: botStateDir(dataDir, 111), logger: capturingLogger().logger });
    const b = UpdateJournal.open({ dir: botStateDir(dataDir, 222), logger: capturingLogger().logger });
    await Promise.all(Array.from({ length: 200 }, (_, i) => a.add(i + 1)));
    await b.add(1);
    expect(a.has(150)).toBe(true);
    expect(b.has(150)).toBe(false);
    expect(botStateDir(dataDir, 111)).not.toBe(botStateDir(dataDir, 222));
  });
});

describe('coalesced appends', () => {
  it('writes the intents of one turn with one write, and each is in the file before its send may start', async () => {
    const dir = await tempDir();
    const journal = UpdateJournal.open({ dir, logger: capturingLogger().logger });
    const before = journal.diskCalls;
    const ids = Array.from({ length: 100 }, (_, i) => i + 1);
    await Promise.all(ids.map((id) => journal.begin(id)));
    expect(journal.diskCalls.writes - before.writes).toBe(1);
    expect(journal.diskCalls.syncs - before.syncs).toBe(0);
    // As if killed now: the next run names every one of them as in doubt.
    const next = UpdateJournal.open({ dir: await copyOf(dir), logger: capturingLogger().logger });
    expect(next.inDoubt).toEqual(ids);
  });

  it('shares one write and one fdatasync among the updates finished in one turn', async () => {
    const dir = await tempDir();
    const journal = UpdateJournal.open({ dir, logger: capturingLogger().logger });
    const before = journal.diskCalls;
    await Promise.all(Array.from({ length: 300 }, (_, i) => journal.add(i + 1)));
    expect(journal.diskCalls.writes - before.writes).toBe(1);
    expect(journal.diskCalls.syncs - before.syncs).toBe(1);
    const next = UpdateJournal.open({ dir: await copyOf(dir), logger: capturingLogger().logger });
    expect([1, 150, 300].map((id) => next.has(id))).toEqual([true, true, true]);
  });

  it('answers a webhook burst after one write and one fdatasync, with every update on disk', async () => {
    const dir = await tempDir();
    const inbox = WebhookInbox.open({ dir, logger: capturingLogger().logger });
    const before = inbox.diskCalls;
    const onDisk: number[] = [];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        inbox.accept(update(100 + i)).then(() => {
          // The moment this update's 200 may go out, its line is in the file.
          onDisk.push(readFileSync(join(dir, INBOX_FILE), 'utf8').includes(`"update_id":${100 + i},`) ? 1 : 0);
        }),
      ),
    );
    expect(onDisk).toEqual(Array(40).fill(1));
    expect(inbox.diskCalls.writes - before.writes).toBe(1);
    expect(inbox.diskCalls.syncs - before.syncs).toBe(1);
  });

  it('a burst that arrives while an fdatasync runs is written and synced together, once', async () => {
    const dir = await tempDir();
    const inbox = WebhookInbox.open({ dir, logger: capturingLogger().logger });
    const first = inbox.accept(update(1));
    // Next turn: the first sync has started; these join the next group commit.
    await new Promise((resolve) => setImmediate(resolve));
    const before = inbox.diskCalls;
    await Promise.all([first, ...Array.from({ length: 20 }, (_, i) => inbox.accept(update(2 + i)))]);
    expect(inbox.diskCalls.writes - before.writes).toBe(1);
    expect(inbox.diskCalls.syncs - before.syncs).toBeLessThanOrEqual(1);
    const reopened = WebhookInbox.open({ dir: await copyOf(dir), logger: capturingLogger().logger });
    expect(reopened.size).toBe(21);
  });
});

/** A copy of the state directory as it is on disk now, as a killed process would leave it. */
async function copyOf(dir: string): Promise<string> {
  const { cp } = await import('node:fs/promises');
  const copy = await tempDir();
  await cp(dir, copy, { recursive: true });
  return copy;
}

describe('WebhookInbox', () => {
  it('keeps accepted updates until finished, across a crash, and drops a torn line', async () => {
    const dir = await tempDir();
    const inbox = WebhookInbox.open({ dir, logger: capturingLogger().logger });
    for (const id of [10, 11, 12]) await inbox.accept(update(id));
    inbox.finish(11);
    await inbox.flush();
    await appendFile(join(dir, INBOX_FILE), 'a {"update_id":13,"mess');
    const { logger, lines } = capturingLogger();
    const reopened = WebhookInbox.open({ dir, logger });
    expect(reopened.pending().map((u) => u.update_id)).toEqual([10, 12]);
    expect(reopened.pending()[0]).toEqual(update(10));
    expect(lines.join('')).toMatch(/torn line/);
    reopened.finish(10);
    reopened.finish(12);
    reopened.close();
    expect(await readFile(join(dir, INBOX_FILE), 'utf8')).toBe('');
  });
});

describe('start-up reads', () => {
  it('skips a journal line too long to be a record, with a warning, and keeps the records around it', async () => {
    const dir = await tempDir();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, JOURNAL_FILE), `c 0\nd 5\nd ${'9'.repeat(5000)}\nd 6\n`);
    const { logger, lines } = capturingLogger();
    const journal = UpdateJournal.open({ dir, logger });
    expect([journal.has(5), journal.has(6)]).toEqual([true, true]);
    expect(lines.join('')).toMatch(/"level":40.*"lines":1.*journal lines too long to be records were skipped/);
    await journal.close();
  });
});
