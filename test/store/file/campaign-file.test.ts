// The file store's campaign book as an operator meets it over time: a campaign and its recipients' outcomes survive a
// restart (an outcome recorded twice after an in-doubt send counts once, a line cut short by a crash is skipped),
// and broadcasts.jsonl does not grow for ever: finished campaigns older than state.ttl are forgotten when the book
// is opened, as the Redis store's keys expire, while an older campaign still sending is kept; repeated outcomes
// are folded into one line each once they make the file much longer than what it holds.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Campaign } from '../../../src/pipeline/broadcast-port.js';
import { CAMPAIGNS_FILE, FileCampaignBook } from '../../../src/store/file/campaign-file.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T08:00:00Z');
const TTL = 90 * DAY;

function campaign(id: string, total: number, createdAt: number): Campaign {
  return { id, text: `news ${id}`, audience: ['all'], total, createdAt };
}

function lineCount(dir: string): number {
  return readFileSync(join(dir, CAMPAIGNS_FILE), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '').length;
}

describe('the file store campaign book', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hearsay-campaigns-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps campaigns and outcomes across a restart; a repeated outcome counts once, a cut-short line is skipped', async () => {
    const book = new FileCampaignBook(dir, { ttlMs: TTL, now: () => NOW });
    await book.create(campaign('c1', 3, NOW - DAY));
    await book.record('c1', 1, 'sent');
    await book.record('c1', 1, 'sent');
    await book.record('c1', 2, 'blocked');
    appendFileSync(join(dir, CAMPAIGNS_FILE), '{"c":"c1","u":3,"o":"se');
    const reopened = new FileCampaignBook(dir, { ttlMs: TTL, now: () => NOW });
    const record = await reopened.get('c1');
    expect(record?.counts).toEqual({ sent: 1, blocked: 1, failed: 0, cancelled: 0 });
  });

  it('forgets finished campaigns older than state.ttl at open and writes the file afresh; keeps one still sending', async () => {
    const book = new FileCampaignBook(dir, { ttlMs: TTL, now: () => NOW - 100 * DAY });
    await book.create(campaign('old-done', 2, NOW - 100 * DAY));
    await book.record('old-done', 1, 'sent');
    await book.record('old-done', 2, 'failed');
    await book.create(campaign('old-cancelled', 5, NOW - 99 * DAY));
    await book.cancel('old-cancelled', NOW - 99 * DAY);
    await book.create(campaign('old-sending', 2, NOW - 95 * DAY));
    await book.record('old-sending', 1, 'sent');
    await book.create(campaign('recent', 1, NOW - 10 * DAY));
    await book.record('recent', 1, 'sent');
    expect(lineCount(dir)).toBe(9);

    const reopened = new FileCampaignBook(dir, { ttlMs: TTL, now: () => NOW });
    expect((await reopened.list()).map((c) => c.id).sort()).toEqual(['old-sending', 'recent']);
    expect((await reopened.get('old-sending'))?.counts.sent).toBe(1);
    // Written afresh: only what is kept is left in the file, and it reads back the same.
    expect(lineCount(dir)).toBe(4);
    const again = new FileCampaignBook(dir, { ttlMs: TTL, now: () => NOW });
    expect(await again.list()).toEqual(await reopened.list());
    // The book goes on appending to the new file; once the old campaign has finished, the next open forgets it.
    await again.record('recent', 1, 'sent');
    await again.record('old-sending', 2, 'sent');
    expect((await again.get('old-sending'))?.counts.sent).toBe(2);
    const last = new FileCampaignBook(dir, { ttlMs: TTL, now: () => NOW });
    expect((await last.list()).map((c) => c.id)).toEqual(['recent']);
    expect(lineCount(dir)).toBe(2);
  });

  it('folds repeated outcomes into one line each once they make the file much longer than what it holds', async () => {
    const book = new FileCampaignBook(dir, { ttlMs: TTL, now: () => NOW });
    await book.create(campaign('big', 800, NOW - DAY));
    for (const round of [1, 2]) for (let user = 1; user <= 800; user++) await book.record('big', user, round === 1 ? 'failed' : 'sent');
    expect(lineCount(dir)).toBe(1601);
    const reopened = new FileCampaignBook(dir, { ttlMs: TTL, now: () => NOW });
    expect((await reopened.get('big'))?.counts).toEqual({ sent: 800, blocked: 0, failed: 0, cancelled: 0 });
    expect(lineCount(dir)).toBe(801);
  });

  it('without a ttl forgets nothing', async () => {
    const book = new FileCampaignBook(dir);
    await book.create(campaign('ancient', 1, 0));
    await book.record('ancient', 1, 'sent');
    expect((await new FileCampaignBook(dir).list()).map((c) => c.id)).toEqual(['ancient']);
    expect(lineCount(dir)).toBe(2);
  });
});
