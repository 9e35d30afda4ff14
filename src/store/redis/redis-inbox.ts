// The Redis ledger's shared inbox: updates stored before they are handled, so that none is lost with a replica.
// In webhook mode a replica stores what it accepted as its own; polling with replicas, the leader stores them
// unclaimed and any replica claims a share, each chat's next update only (a busy chat's backlog stays here). A replica's entries outlive it only until another takes them over.
import type { Update } from '../../api/types.js';
import { chatKeyOf } from '../../engine/events.js';
import { updateFingerprint } from '../update-fingerprint.js';
import { SERVICE_RETENTION_MS } from '../records.js';
import { AcceptsInFlight } from '../accepts-in-flight.js';
import { UnstorableUpdateError, type AcceptResult } from '../../pipeline/ports.js';
import type { InboxBacklog, InboxClaim } from '../../pipeline/replica-ports.js';
import { ACCEPT_BATCH_SCRIPT } from './ledger-scripts.js';
import { CLAIM_SCRIPT, LEGACY_INBOX_SCRIPT } from './inbox-scripts.js';
import { scanKeys } from './untagged-keys.js';
import { RequestBatches } from './request-batches.js';
import type { Logger } from '../../log/logger.js';
import { ReplicaFencedError, script, type RedisAccess } from './redis-access.js';

const SCRIPTS = {
  accept: script(ACCEPT_BATCH_SCRIPT),
  claim: script(CLAIM_SCRIPT),
  legacy: script(LEGACY_INBOX_SCRIPT),
};

/** One update to store. */
interface AcceptItem {
  readonly id: number;
  readonly fingerprint: string;
  readonly json: string;
  readonly chat: string;
  /** Its state documents (store keys) to read with its intent, taken in the same step when its turn is now; null for no intent. */
  readonly begin: readonly string[] | null;
}

/**
 * What the store said of one update: its result, the note on the update id sequence, 1 when it heads its chat's
 * queue (else 0), the id it follows there ('' when first), and when its intent was taken with it, the values of
 * the documents it asked for ('' when absent).
 */
type AcceptAnswer = readonly [AcceptResult | 'fenced', string, number, string, (readonly string[])?];

const FENCED: AcceptAnswer = ['fenced', '', 0, ''];

/** An accept that asked for the update's intent: its result, and the documents' values when the intent was taken with it. */
export interface BegunAccept {
  readonly result: AcceptResult;
  readonly values?: readonly string[];
}

/**
 * The value of a replica's lease key (`replica:<owner>`): the inbox layout it reads and writes. Replicas of
 * earlier versions wrote '1' and kept an entry over several hashes (see LEGACY_INBOX_SCRIPT).
 */
export const LEASE_VALUE = '2';

/** What the inbox shares with its ledger. */
export interface RedisInboxParts {
  readonly store: RedisAccess;
  /** The replica's name in the store (see RedisLedger.owner). */
  readonly owner: string;
  readonly now: () => number;
  /** Whether the ledger keeps an inbox at all (not in plain polling mode). */
  readonly enabled: boolean;
  /** Told what the accept script said of the update id sequence (a new sequence is logged). */
  readonly noteSequence: (id: number, reason: string) => void;
}

/** The inbox of one replica's ledger (see RedisLedger.accept, claim and unclaimed). */
export class RedisInbox {
  /** Updates being stored right now: the same update again waits for it instead of storing twice. */
  private readonly storing = new AcceptsInFlight();
  /**
   * Updates this replica stored as its own, claimed or took over, and has not committed: the ones the store
   * holds for it, which a store that loses its data loses with it (see {@link dropInHand}).
   */
  private readonly inHand = new Set<number>();
  /** Updates this replica stored or claimed at the head of their chat's queue, not yet handled: see {@link takeTurnNow}. */
  private readonly turnNow = new Set<number>();
  /**
   * Updates this replica stored behind another of their chat, by the id they follow: when that one commits here,
   * everything before them is committed (it ran only in its turn), so their turn is now, without asking Redis.
   */
  private readonly successorOf = new Map<number, number>();
  private readonly predecessorOf = new Map<number, number>();

  /** The polling leader's accepts: a fetched batch, stored in one script call (paced: see RequestPacer). */
  private readonly leadAccepts: RequestBatches<AcceptItem, AcceptAnswer>;
  /** This replica's own accepts (webhook POSTs): those asked for while the store's previous batch was unanswered, in one script call. */
  private readonly ownAccepts: RequestBatches<AcceptItem, AcceptAnswer>;

  constructor(private readonly parts: RedisInboxParts) {
    const { gather } = parts.store.pacer;
    this.leadAccepts = new RequestBatches((token, batch) => this.storeBatch(token, batch), gather, FENCED);
    this.ownAccepts = new RequestBatches((token, batch) => this.storeBatch(token, batch), gather, FENCED);
  }

  /**
   * Stores the update in the shared inbox. `lead` (polling with replicas): stored unclaimed, for any replica
   * to {@link claim}, and only while this replica holds the polling lease under that fencing token; otherwise
   * rejects with {@link ReplicaFencedError} and stores nothing.
   */
  async accept(update: Update, lead?: { token: string }): Promise<AcceptResult> {
    return (await this.acceptAndBegin(update, null, lead)).result;
  }

  /**
   * {@link accept}, and when the update is stored as this replica's own at the head of its chat's queue (its
   * turn is now), its intent taken and the documents `begin` names (store keys) read in the same step: the values
   * come with the result then. `begin` null: no intent (as {@link accept}). With `lead`, the update is kept (the
   * leader's own, not unclaimed) only when it heads its chat's queue; otherwise it is stored unclaimed as by accept.
   */
  async acceptAndBegin(update: Update, begin: readonly string[] | null, lead?: { token: string }): Promise<BegunAccept> {
    const id = update.update_id;
    const fingerprint = updateFingerprint(update);
    const joined = this.storing.joined(id, fingerprint);
    if (joined) return { result: await joined };
    if (!this.parts.enabled) throw new Error('this ledger keeps no inbox (polling mode)');
    let json: string;
    try {
      json = JSON.stringify(update);
    } catch (error) {
      throw new UnstorableUpdateError(id, error);
    }
    const item = { id, fingerprint, json, chat: chatKeyOf(update), begin };
    return this.storing.track(id, fingerprint, this.storeInInbox(item, lead));
  }

  private async storeInInbox(item: AcceptItem, lead: { token: string } | undefined): Promise<BegunAccept> {
    const [result, , , , values] = await (lead ? this.leadAccepts.run(lead.token, item) : this.ownAccepts.run('', item));
    if (result === 'fenced') throw new ReplicaFencedError(`update ${item.id}: this replica no longer holds the polling lease; not stored from here`);
    return values ? { result, values } : { result };
  }

  /**
   * One script call for a batch, then one wait for it to be durable. `token`: the polling leader's fencing token
   * (its entries stored unclaimed, any replica's to claim and count, except those it keeps: see acceptAndBegin), or
   * '' for this replica's own, which it holds from here.
   */
  private async storeBatch(token: string, batch: readonly AcceptItem[]): Promise<AcceptAnswer[]> {
    const { owner } = this.parts;
    const args: Array<string | number> = [this.parts.now(), SERVICE_RETENTION_MS, token ? owner : '', token, token ? '' : owner];
    const keys: string[] = [];
    for (const item of batch) {
      args.push(item.id, item.fingerprint, item.json, item.chat, item.begin ? item.begin.length : -1);
      if (item.begin) keys.push(...item.begin);
    }
    const flat = (await this.parts.store.runPacedScript(SCRIPTS.accept, keys, args)) as Array<string | number>;
    if (flat[0] === 'fenced') return batch.map(() => FENCED);
    let at = 0;
    const answers = batch.map((item): AcceptAnswer => {
      const begun = flat[at + 4] === 1 && item.begin !== null;
      const values = begun ? (flat.slice(at + 5, at + 5 + item.begin.length) as string[]) : undefined;
      const answer: AcceptAnswer = [flat[at] as AcceptResult, String(flat[at + 1] ?? ''), Number(flat[at + 2] ?? 0), String(flat[at + 3] ?? ''), values];
      at += 5 + (values ? values.length : 0);
      this.parts.noteSequence(item.id, answer[1]);
      // Its own: a webhook replica's, or one the polling leader kept (begun with its store).
      if ((!token && answer[0] === 'stored') || values) this.holdStored(item.id, answer);
      return answer;
    });
    if (answers.some(([result]) => result === 'stored')) await this.parts.store.durable();
    return answers;
  }

  /** This replica stored the update as its own: it holds it, and knows whether its turn is now or which one it follows. */
  private holdStored(id: number, [, , first, after]: AcceptAnswer): void {
    this.hold([id]);
    if (first === 1) this.turnNow.add(id);
    else if (after) this.follows(id, Number(after));
  }

  /** Updates (by id) that are this replica's to handle now: taken over (again, for those it is still handling), or claimed. */
  hold(ids: Iterable<number>): void {
    for (const id of ids) this.inHand.add(id);
  }

  private follows(id: number, earlier: number): void {
    this.successorOf.set(earlier, id);
    this.predecessorOf.set(id, earlier);
  }

  /** The update is committed, or another replica took it over: the store holds nothing of it for this replica any more. */
  release(id: number): void {
    this.inHand.delete(id);
    this.turnNow.delete(id);
    const earlier = this.predecessorOf.get(id);
    if (earlier === undefined) return;
    this.predecessorOf.delete(id);
    if (this.successorOf.get(earlier) === id) this.successorOf.delete(earlier);
  }

  /** The update stored right before this one in its chat's queue, while that one is not known to be committed. */
  predecessor(id: number): number | undefined {
    return this.predecessorOf.get(id);
  }

  /** The update committed here: the one stored right behind it in its chat, if this replica holds it, may go now. */
  committed(id: number): void {
    const next = this.successorOf.get(id);
    if (next === undefined) return;
    this.successorOf.delete(id);
    this.predecessorOf.delete(next);
    if (this.inHand.has(next)) this.turnNow.add(next);
  }

  /**
   * True (once) when the update headed its chat's queue as this replica stored or claimed it, or the update
   * right before it committed here: its turn is now, with no need to ask Redis (an update is only ever queued
   * behind those accepted before it).
   */
  takeTurnNow(id: number): boolean {
    return this.turnNow.delete(id);
  }

  /** The store lost its data: the ids of the updates it held for this replica (oldest first), now forgotten. */
  dropInHand(): number[] {
    const ids = [...this.inHand].sort((a, b) => a - b);
    this.inHand.clear();
    this.turnNow.clear();
    this.successorOf.clear();
    this.predecessorOf.clear();
    return ids;
  }

  /** Polling with replicas: takes up to `limit` of the updates the leader stored, oldest first; they are this replica's to handle. */
  async claim(limit: number): Promise<InboxClaim> {
    if (limit < 1) return { updates: [], othersStored: Infinity };
    const [claimed, stored] = (await this.parts.store.runScript(SCRIPTS.claim, [], [this.parts.owner, limit])) as [string[], number];
    const updates = claimed.map((json) => JSON.parse(json) as Update);
    this.hold(updates.map((update) => update.update_id));
    // Each is the first of its chat's queue (only those are given out): its turn is now.
    for (const update of updates) this.turnNow.add(update.update_id);
    // The ones committed here since the script ran left the inbox after it counted them: the count errs upwards.
    return { updates, othersStored: Math.max(0, stored - this.inHand.size) };
  }

  /**
   * Folds the inbox an earlier version left (its entries spread over several hashes) into this version's, once;
   * rejects, naming what to do, while a replica of that version still holds a lease (it would go on writing
   * the old layout). Costs one EXISTS when there is none.
   */
  async foldLegacy(logger: Logger): Promise<void> {
    const { store } = this.parts;
    if ((await store.command(() => store.client.exists(store.key('inbox:seq')))) === 0) return;
    const leases = await store.command(() => scanKeys(store.botServer(), store.key('replica:*')));
    const values = leases.length > 0 ? await store.command(() => store.client.mget(leases)) : [];
    if (values.some((value) => value !== null && value !== LEASE_VALUE)) {
      throw new Error(
        "a replica of an earlier hearsay version still runs on this bot's Redis store, which keeps its inbox in another layout: stop every replica, then start this version, which converts the inbox once (a replica killed less than 10 s ago still counts)",
      );
    }
    const folded = Number(await store.runScript(SCRIPTS.legacy, [], []));
    if (folded > 0) logger.info({ entries: folded }, "converted the inbox an earlier version left in this bot's Redis store to this version's layout (once)");
  }

  /** Polling with replicas: the stored updates a replica could claim now (each chat's next), and all those not handled yet. */
  async backlog(): Promise<InboxBacklog> {
    const { store } = this.parts;
    const [unclaimed, stored] = await store.command(() =>
      Promise.all([store.client.zcard(store.key('inbox:unclaimed')), store.client.hlen(store.key('inbox'))]),
    );
    return { unclaimed, stored };
  }
}
