// The campaign book of the file store: one line per change in `broadcasts.jsonl` in the bot's state directory —
// `{"campaign": {…}}` (planned), `{"c": id, "u": user id, "o": outcome}` (a recipient's outcome) and
// `{"c": id, "cancelled": ms}` — read once at open. Only the process holding the instance lock writes it (the
// running bot, or a command while none runs). A campaign and its cancellation are flushed to disk before they are
// acted on; an outcome is written at once (a kill cannot lose it) and reaches the disk with the journal's next sync.
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Campaign, CampaignBook, CampaignRecord, RecipientOutcome } from '../../pipeline/broadcast-port.js';
import { RECIPIENT_OUTCOMES } from '../../pipeline/broadcast-port.js';
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

export class FileCampaignBook implements CampaignBook {
  private readonly tally = new CampaignTally();
  private readonly path: string;

  /** Reads the book of `stateDir` (none yet: no campaigns). */
  constructor(stateDir: string) {
    this.path = join(stateDir, CAMPAIGNS_FILE);
    if (!existsSync(this.path)) return;
    for (const text of readFileSync(this.path, 'utf8').split('\n')) {
      if (text.trim() === '') continue;
      try {
        this.apply(JSON.parse(text) as Line);
      } catch {
        // A line cut short by a crash: its outcome is recorded again when the recipient's effect is performed again.
      }
    }
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
    if (!durable) return;
    const fd = openSync(this.path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
