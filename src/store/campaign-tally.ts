// The campaign book as a store that keeps it in its own memory holds it (the file store, the memory store): each
// campaign, whether it was cancelled, and each recipient's latest outcome, from which the counts are made. The file
// store writes a line for every change it makes here (file/campaign-file.ts).
import { noOutcomes, type Campaign, type CampaignBook, type CampaignRecord, type RecipientOutcome } from '../pipeline/broadcast-port.js';

interface Entry {
  readonly campaign: Campaign;
  cancelledAt?: number;
  readonly outcomes: Map<number, RecipientOutcome>;
}

export class CampaignTally implements CampaignBook {
  private readonly entries = new Map<string, Entry>();

  async create(campaign: Campaign): Promise<void> {
    this.add(campaign);
  }

  /** Keeps a campaign (one kept already stays as it is). */
  add(campaign: Campaign): void {
    if (!this.entries.has(campaign.id)) this.entries.set(campaign.id, { campaign, outcomes: new Map() });
  }

  async get(id: string): Promise<CampaignRecord | undefined> {
    const entry = this.entries.get(id);
    return entry && recordOf(entry);
  }

  async list(): Promise<CampaignRecord[]> {
    return [...this.entries.values()].map(recordOf).sort((a, b) => b.createdAt - a.createdAt);
  }

  async record(id: string, userId: number, outcome: RecipientOutcome): Promise<void> {
    this.note(id, userId, outcome);
  }

  /** Keeps a recipient's outcome; false when the campaign is unknown. */
  note(id: string, userId: number, outcome: RecipientOutcome): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    entry.outcomes.set(userId, outcome);
    return true;
  }

  async cancel(id: string, at: number): Promise<boolean> {
    return this.markCancelled(id, at);
  }

  /** Marks a campaign cancelled (the first time counts); false when it is unknown. */
  markCancelled(id: string, at: number): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    entry.cancelledAt ??= at;
    return true;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Forgets a campaign and its outcomes. */
  remove(id: string): void {
    this.entries.delete(id);
  }

  /** Every campaign kept, as it stands: its record, when it was cancelled, each recipient's latest outcome. */
  *kept(): Generator<{ readonly record: CampaignRecord; readonly outcomes: ReadonlyMap<number, RecipientOutcome> }> {
    for (const entry of this.entries.values()) yield { record: recordOf(entry), outcomes: entry.outcomes };
  }
}

function recordOf(entry: Entry): CampaignRecord {
  const counts = noOutcomes();
  for (const outcome of entry.outcomes.values()) counts[outcome] += 1;
  return { ...entry.campaign, counts, ...(entry.cancelledAt !== undefined ? { cancelledAt: entry.cancelledAt } : {}) };
}
