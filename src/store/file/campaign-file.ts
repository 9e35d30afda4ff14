// The campaign book of the file store: one line per change in `broadcasts.jsonl` in the bot's state directory —
// `{"campaign": {…}}` (planned), `{"c": id, "u": user id, "o": outcome}` (a recipient's outcome) and
// `{"c": id, "cancelled": ms}` — read once at open. Only the process holding the instance lock writes it (the
// running bot, or a command while none runs). A campaign and its cancellation are flushed to disk before they are
// acted on; an outcome is written at once (a kill cannot lose it) and reaches the disk with the journal's next sync.
// At open (under the lock), finished campaigns older than state.ttl are forgotten, as the Redis store's expire, and
// the file is written afresh (to a temporary file, then renamed) when that dropped some or when repeated outcomes
// (sends reported in doubt and performed again) make it much longer than what it holds.
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Campaign, CampaignBook, CampaignRecord, RecipientOutcome } from '../../pipeline/broadcast-port.js';
import { RECIPIENT_OUTCOMES, recipientsLeft } from '../../pipeline/broadcast-port.js';
import { CampaignTally } from '../campaign-tally.js';

/** The file's name in the bot's state directory. */
export const CAMPAIGNS_FILE = 'broadcasts.jsonl';

interface Line {
  readonly campaign?: Campaign;
  readonly c?: string;
  readonly u?: number;
  readonly o?: RecipientOutcome;
  readonly cancelled?: number;
}

/** Options of {@link FileCampaignBook}. */
export interface FileCampaignBookOptions {
  /** A finished (or cancelled) campaign created longer ago than this is forgotten at open: `state.ttl`. Without it, none is. */
  readonly ttlMs?: number;
  readonly now?: () => number;
}

/** Below this many lines the file is never written afresh for its repeated outcomes alone. */
const COMPACT_MIN_LINES = 1000;

export class FileCampaignBook implements CampaignBook {
  private readonly tally = new CampaignTally();
  private readonly path: string;

  /** Reads the book of `stateDir` (none yet: no campaigns); the caller holds the state directory's lock. */
  constructor(stateDir: string, options: FileCampaignBookOptions = {}) {
    this.path = join(stateDir, CAMPAIGNS_FILE);
    if (!existsSync(this.path)) return;
    let lines = 0;
    for (const text of readFileSync(this.path, 'utf8').split('\n')) {
      if (text.trim() === '') continue;
      lines += 1;
      try {
        this.apply(JSON.parse(text) as Line);
      } catch {
        // A line cut short by a crash: its outcome is recorded again when the recipient's effect is performed again.
      }
    }
    const forgotten = options.ttlMs === undefined ? 0 : this.forgetFinished((options.now ?? Date.now)() - options.ttlMs);
    if (forgotten > 0 || (lines > COMPACT_MIN_LINES && lines > 1.5 * this.linesNeeded())) this.rewrite();
  }

  /** Forgets the finished campaigns created before `before`; how many. */
  private forgetFinished(before: number): number {
    const old = [...this.tally.kept()].filter(({ record }) => record.createdAt < before && (record.cancelledAt !== undefined || recipientsLeft(record) === 0));
    for (const { record } of old) this.tally.remove(record.id);
    return old.length;
  }

  private linesNeeded(): number {
    let lines = 0;
    for (const { record, outcomes } of this.tally.kept()) lines += 1 + (record.cancelledAt !== undefined ? 1 : 0) + outcomes.size;
    return lines;
  }

  /** Writes what is kept, one line per campaign, cancellation and recipient, to a new file that replaces the old one. */
  private rewrite(): void {
    const lines: string[] = [];
    for (const { record, outcomes } of this.tally.kept()) {
      const { counts: _counts, cancelledAt, ...campaign } = record;
      lines.push(JSON.stringify({ campaign } satisfies Line));
      if (cancelledAt !== undefined) lines.push(JSON.stringify({ c: record.id, cancelled: cancelledAt } satisfies Line));
      for (const [user, outcome] of outcomes) lines.push(JSON.stringify({ c: record.id, u: user, o: outcome } satisfies Line));
    }
    const fresh = `${this.path}.new`;
    writeFileSync(fresh, lines.length > 0 ? `${lines.join('\n')}\n` : '');
    syncFile(fresh);
    renameSync(fresh, this.path);
  }

  async create(campaign: Campaign): Promise<void> {
    this.append({ campaign }, true);
    this.tally.add(campaign);
  }

  get(id: string): Promise<CampaignRecord | undefined> {
    return this.tally.get(id);
  }

  list(): Promise<CampaignRecord[]> {
    return this.tally.list();
  }

  async record(id: string, userId: number, outcome: RecipientOutcome): Promise<void> {
    if (!this.tally.has(id)) return;
    this.append({ c: id, u: userId, o: outcome }, false);
    this.tally.note(id, userId, outcome);
  }

  async cancel(id: string, at: number): Promise<boolean> {
    if (!this.tally.has(id)) return false;
    this.append({ c: id, cancelled: at }, true);
    return this.tally.markCancelled(id, at);
  }

  private apply(line: Line): void {
    if (line.campaign && typeof line.campaign.id === 'string') this.tally.add(line.campaign);
    else if (typeof line.c === 'string' && typeof line.cancelled === 'number') this.tally.markCancelled(line.c, line.cancelled);
    else if (typeof line.c === 'string' && typeof line.u === 'number' && line.o !== undefined && RECIPIENT_OUTCOMES.includes(line.o))
      this.tally.note(line.c, line.u, line.o);
  }

  private append(line: Line, durable: boolean): void {
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
    if (durable) syncFile(this.path);
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
