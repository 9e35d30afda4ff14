// Conversation state in the journal: retention (state.ttl) counts from a document's last change and a
// compaction drops what expired; one user's variables stay within state.max_user_bytes (a change beyond is
// not kept, and logged); an operator's command run while the bot is stopped keeps the intents of the last
// run, so its in-doubt replies are still named.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Update } from '../../../src/api/types.js';
import { FileLedger } from '../../../src/store/file/file-ledger.js';
import { JOURNAL_FILE, UpdateJournal } from '../../../src/store/file/update-journal.js';
import { createLogger } from '../../../src/log/logger.js';
import type { StateChange } from '../../../src/pipeline/ports.js';
import { lineCapture } from '../../support/log-capture.js';

const DAY = 86_400_000;
const silent = createLogger({ level: 'silent' });
const here = { chatId: 1, userId: 2 };
const update = (id: number): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 1, chat: { id: 1, type: 'private', first_name: 'A' }, from: { id: 2, is_bot: false, first_name: 'A' }, text: 'x' },
  }) as Update;
const setUser = (key: string, value: string | number | null): StateChange => ({ type: 'set_state', scope: 'user', key, value });
const setChat = (key: string, value: string | number | null): StateChange => ({ type: 'set_state', scope: 'chat', key, value });

describe('journal state', () => {
  it('forgets what was not changed for state.ttl, counting from the last change; a compaction drops it from the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearsay-ttl-'));
    let now = 1_000 * DAY;
    const open = () => FileLedger.open({ dir, logger: silent, inbox: false, journal: { now: () => now }, state: { ttlMs: 10 * DAY, maxUserBytes: 16_384 } });
    let ledger = open();
    await ledger.commit(update(1), { scope: here, changes: [setUser('name', 'Ada'), setChat('topic', 'shoes')] });
    now += 6 * DAY;
    await ledger.commit(update(2), { scope: here, changes: [setChat('mood', 'good')] });
    now += 4 * DAY - 1;
    expect(await ledger.load(here)).toEqual({ user: { name: 'Ada' }, chat: { topic: 'shoes', mood: 'good' }, flow: null });
    now += 1;
    // The user's variables were last changed 10 days ago; the chat's only 4.
    expect(await ledger.load(here)).toEqual({ user: {}, chat: { topic: 'shoes', mood: 'good' }, flow: null });
    await ledger.close();
    expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).not.toContain('user:2');
    ledger = open();
    expect((await ledger.load(here)).user).toEqual({});
    now += 6 * DAY;
    expect((await ledger.load(here)).chat).toEqual({});
    await ledger.close();
  });

  it("keeps a user's variables within state.max_user_bytes: a change beyond is not kept, and logged", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearsay-bound-'));
    const { destination, lines } = lineCapture();
    const logger = createLogger({ level: 'warn', destination, pretty: false });
    const ledger = FileLedger.open({ dir, logger, inbox: false, state: { ttlMs: DAY, maxUserBytes: 1024 } });
    await ledger.commit(update(1), { scope: here, changes: [setUser('a', 'x'.repeat(900))] });
    await ledger.commit(update(2), { scope: here, changes: [setUser('b', 'y'.repeat(200)), setChat('c', 'z'.repeat(2000))] });
    expect(await ledger.load(here)).toEqual({ user: { a: 'x'.repeat(900) }, chat: { c: 'z'.repeat(2000) }, flow: null });
    expect(await ledger.seen(update(2))).toBe(true);
    expect(lines.join('')).toMatch(/"update_id":2,"user_id":2,"bytes":\d{4},"limit":1024.*state.max_user_bytes/);
    await ledger.close();
  });

  it('opened for maintenance (the bot stopped), the journal keeps the intents of the last run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearsay-maint-'));
    const ledger = FileLedger.open({ dir, logger: silent, inbox: false });
    await ledger.commit(update(1), { scope: here, changes: [setUser('name', 'Ada')] });
    await ledger.begin(update(2)); // the run is killed while sending this reply
    const maintenance = UpdateJournal.open({ dir, logger: silent, maintenance: true });
    expect(maintenance.inDoubt).toEqual([]);
    expect(await maintenance.forgetUser(2)).toEqual({ userId: 2, variables: { name: 'Ada' }, flows: [] });
    await maintenance.close();
    const next = FileLedger.open({ dir, logger: silent, inbox: false });
    expect(await next.inDoubt()).toEqual([2]);
    expect((await next.load(here)).user).toEqual({});
    expect(await next.seen(update(1))).toBe(true);
    await next.close();
  });
});
