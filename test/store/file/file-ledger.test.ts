// The file-backed ledger (journal + inbox) passes the ledger contract; and, specific to files: a done line
// torn anywhere by a crash keeps neither its mark nor its state, the state survives compaction, and a burst
// of commits shares one write and one fdatasync.
import { cpSync, mkdtempSync, readFileSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Update } from '../../../src/api/types.js';
import { FileLedger } from '../../../src/store/file/file-ledger.js';
import { JOURNAL_FILE } from '../../../src/store/file/update-journal.js';
import { createLogger } from '../../../src/log/logger.js';
import { ledgerContract, type StoreHarness } from '../ledger-contract.js';
import { outboxContract } from '../outbox-contract.js';

const logger = createLogger({ level: 'silent' });
const tempDir = () => mkdtempSync(join(tmpdir(), 'hearsay-ledger-'));

function fileHarness(dir: string): StoreHarness {
  return {
    open: async () => FileLedger.open({ dir, logger, inbox: true }),
    // Files written (not yet fdatasynced) survive a killed process; the copy is what the disk holds now.
    crashCopy: async () => {
      const copy = tempDir();
      cpSync(dir, copy, { recursive: true });
      return fileHarness(copy);
    },
  };
}

ledgerContract('file journal and inbox', async () => fileHarness(tempDir()));
outboxContract('file journal', async () => fileHarness(tempDir()));

const here = { chatId: 1, userId: 2 };
const update = (id: number): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 1, chat: { id: 1, type: 'private', first_name: 'A' }, from: { id: 2, is_bot: false, first_name: 'A' }, text: 'x' },
  }) as Update;

describe('FileLedger on disk', () => {
  it('a done line cut at any byte by a crash keeps neither the done mark nor the state', async () => {
    const dir = tempDir();
    const ledger = FileLedger.open({ dir, logger, inbox: false });
    await ledger.commit(update(1), null);
    const file = join(dir, JOURNAL_FILE);
    const before = statSync(file).size;
    await ledger.commit(update(2), { scope: here, changes: [{ type: 'set_state', scope: 'user', key: 'plan', value: 'gold' }] });
    const after = statSync(file).size;
    // The document carries the time of its last change, for retention (state.ttl).
    expect(readFileSync(file, 'utf8')).toMatch(/^D 2 \S+ \[\["user:2",\{"plan":"gold","@written":\d+\}\]\]$/m);
    for (let cut = before; cut <= after; cut++) {
      const copy = tempDir();
      cpSync(dir, copy, { recursive: true });
      truncateSync(join(copy, JOURNAL_FILE), cut);
      const crashed = FileLedger.open({ dir: copy, logger, inbox: false });
      const done = await crashed.seen(update(2));
      expect({ cut, done, state: (await crashed.load(here)).user }).toEqual({ cut, done: cut === after, state: cut === after ? { plan: 'gold' } : {} });
      await crashed.close();
    }
    await ledger.close();
  });

  it('keeps the state through compaction, forgetting confirmed ids, and through a new id sequence', async () => {
    const dir = tempDir();
    const ledger = FileLedger.open({ dir, logger, inbox: false, journal: { compactAfterLines: 10 } });
    for (let id = 1; id <= 50; id++) {
      await ledger.commit(update(id), { scope: here, changes: [{ type: 'set_state', scope: 'chat', key: 'last', value: id }] });
      await ledger.confirm(id);
    }
    expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8').split('\n').length).toBeLessThan(20);
    expect(await ledger.load(here)).toEqual({ user: {}, chat: { last: 50 }, flow: null });
    // An id below the confirmed offset: the service started over; the ids go, the state stays.
    expect(await ledger.seen(update(3))).toBe(false);
    await ledger.close();
    const reopened = FileLedger.open({ dir, logger, inbox: false });
    expect(await reopened.load(here)).toEqual({ user: {}, chat: { last: 50 }, flow: null });
    await reopened.close();
  });

  it('commits a burst of updates with state in one write and one fdatasync', async () => {
    const ledger = FileLedger.open({ dir: tempDir(), logger, inbox: false });
    const before = ledger.diskCalls.journal;
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        ledger.commit(update(i + 1), { scope: { chatId: i, userId: i }, changes: [{ type: 'set_state', scope: 'user', key: 'n', value: i }] }),
      ),
    );
    expect(ledger.diskCalls.journal.writes - before.writes).toBe(1);
    expect(ledger.diskCalls.journal.syncs - before.syncs).toBe(1);
    await ledger.close();
  });

  it('holds a sync while updates are still running towards their commit, and starts it when the last one commits', async () => {
    const ledger = FileLedger.open({ dir: tempDir(), logger, inbox: false, groupCommitMaxDelayMs: 60_000 });
    let running = 3;
    ledger.groupCommitsWhile(() => running > 0);
    const before = ledger.diskCalls.journal;
    const commits: Promise<void>[] = [];
    for (let id = 1; id <= 3; id++) {
      running -= 1;
      commits.push(ledger.commit(update(id), { scope: here, changes: [{ type: 'set_state', scope: 'chat', key: 'n', value: id }] }));
      // Each commit in its own turn of the event loop, as replies arrive.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(commits);
    expect(ledger.diskCalls.journal.syncs - before.syncs).toBe(1);
    await ledger.close();
  });

  it('holds a sync no longer than its bound when the running updates do not come', async () => {
    const ledger = FileLedger.open({ dir: tempDir(), logger, inbox: false, groupCommitMaxDelayMs: 20 });
    ledger.groupCommitsWhile(() => true);
    await ledger.commit(update(1), { scope: here, changes: [{ type: 'set_state', scope: 'chat', key: 'n', value: 1 }] });
    expect(await ledger.seen(update(1))).toBe(true);
    expect(ledger.diskCalls.journal.syncs).toBeGreaterThanOrEqual(1);
    await ledger.close();
  });

  it('commits an update without state changes once its line is written, and settle() flushes it to disk', async () => {
    const dir = tempDir();
    const ledger = FileLedger.open({ dir, logger, inbox: false });
    const before = ledger.diskCalls.journal;
    await ledger.commit(update(1), null);
    // Written (a killed process keeps it), not flushed yet: its reply is out and the service still holds the update.
    expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).toMatch(/^d 1 /m);
    expect(ledger.diskCalls.journal.syncs - before.syncs).toBe(0);
    await ledger.settle();
    expect(ledger.diskCalls.journal.syncs - before.syncs).toBe(1);
    await ledger.close();
  });

  it('flushes the done line of an update from the inbox before taking it out of the inbox', async () => {
    const ledger = FileLedger.open({ dir: tempDir(), logger, inbox: true });
    await ledger.accept(update(1));
    const before = ledger.diskCalls.journal.syncs;
    await ledger.commit(update(1), null);
    expect(ledger.diskCalls.journal.syncs - before).toBe(1);
    expect(await ledger.pending()).toEqual([]);
    await ledger.close();
  });
});
