// Broadcasts as the stores keep them. A campaign (one message an operator sends to many users) is its
// recipients' outbox effects — one `broadcast` effect per user, all stored in one record, so it is planned whole
// or not at all, and each performed once like any effect — plus an entry in the store's campaign book: the
// message, its audience as written, how many it was for, and each recipient's outcome (sent, blocked, failed,
// cancelled) once known. The book says where a campaign stands (`hearsay broadcast status`); the outbox says what
// is left to send. Every store implements both (file, Redis, memory).

/** A user the store keeps variables of, with those variables (a broadcast's audience is chosen from them). */
export interface KnownUser {
  readonly userId: number;
  readonly variables: Readonly<Record<string, unknown>>;
}

/** What becomes of one recipient of a campaign. */
export type RecipientOutcome = 'sent' | 'blocked' | 'failed' | 'cancelled';

/** Every outcome, in the order status shows them. */
export const RECIPIENT_OUTCOMES: readonly RecipientOutcome[] = ['sent', 'blocked', 'failed', 'cancelled'];

/** A campaign as planned. */
export interface Campaign {
  /** Made when it is planned (its date and a random part): names its effects (`b.<id>.<user id>`). */
  readonly id: string;
  /** The message's text as sent (parse_mode applies to it). */
  readonly text: string;
  readonly parseMode?: 'HTML' | 'MarkdownV2' | 'Markdown';
  /** An inline keyboard (`reply_markup`), as sent. */
  readonly replyMarkup?: Readonly<Record<string, unknown>>;
  /** The `--to` conditions as written (all of them held for each recipient when it was planned). */
  readonly audience: readonly string[];
  /** How many recipients it was planned for. */
  readonly total: number;
  /** When it was planned (ms since the epoch). */
  readonly createdAt: number;
}

/** A campaign with where it stands: how many recipients came to each outcome, and whether it was cancelled. */
export interface CampaignRecord extends Campaign {
  readonly counts: Readonly<Record<RecipientOutcome, number>>;
  /** When `hearsay broadcast cancel` stopped it (ms since the epoch); absent while it runs. */
  readonly cancelledAt?: number;
}

/**
 * The campaigns a store keeps. A recipient's outcome is kept once per recipient (an attempt performed again after a
 * crash counts once), so sent + blocked + failed + cancelled never exceeds the total.
 */
export interface CampaignBook {
  /** Keeps a new campaign; resolves once a kill can no longer lose it. */
  create(campaign: Campaign): Promise<void>;
  /** The campaign with its counts; undefined when there is none by that id. */
  get(id: string): Promise<CampaignRecord | undefined>;
  /** Every campaign kept, newest first. */
  list(): Promise<CampaignRecord[]>;
  /** A recipient's outcome (a later one for the same recipient replaces it). */
  record(id: string, userId: number, outcome: RecipientOutcome): Promise<void>;
  /** Marks the campaign cancelled at `at`; false when there is no such campaign. */
  cancel(id: string, at: number): Promise<boolean>;
}

/** How many recipients are left (planned, no outcome yet). */
export function recipientsLeft(campaign: CampaignRecord): number {
  return Math.max(0, campaign.total - RECIPIENT_OUTCOMES.reduce((sum, outcome) => sum + campaign.counts[outcome], 0));
}

/** Zero of every outcome. */
export function noOutcomes(): Record<RecipientOutcome, number> {
  return { sent: 0, blocked: 0, failed: 0, cancelled: 0 };
}
