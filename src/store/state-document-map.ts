// The conversation state a store keeps in its own memory (the file store, the memory store): its documents by
// key (see state-documents.ts), each stamped with the time of its last change so retention (`state.ttl`) can
// forget what nobody touched for that long, one user's variables bounded in size (`state.max_user_bytes`), and
// the operator's view of a user's state (show, forget). The file journal writes the lines; this decides what they hold.
import type { KnownUser } from '../pipeline/broadcast-port.js';
import type { Logger } from '../log/logger.js';
import type { StateCommit } from '../pipeline/ports.js';
import { applyChanges, type StateDocument } from './state-documents.js';
import type { FlowPosition } from '../engine/state.js';
import { DEFAULT_MAX_USER_BYTES, DEFAULT_STATE_TTL_MS, type StoredFlow, type UserState } from './records.js';

/** When a document last changed (ms since the epoch); no variable, step or flow field starts with '@'. */
export const WRITTEN_KEY = '@written';

export interface StateDocumentMapOptions {
  /** Documents not changed for this long are forgotten (`state.ttl`). */
  ttlMs?: number;
  /** Largest JSON size of one user's variables (`state.max_user_bytes`). */
  maxUserBytes?: number;
  now: () => number;
  logger: Logger;
}

function withoutStamp(document: StateDocument): StateDocument {
  if (!Object.hasOwn(document, WRITTEN_KEY)) return document;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (key !== WRITTEN_KEY) Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

const FLOW_KEY = /^flow:(-?\d+):(-?\d+)$/;
const MEMBER_KEY = /^member:(-?\d+):(-?\d+)$/;

export class StateDocumentMap {
  /** Documents as decide sees them (no stamp), so a read costs no copy; their stamps are kept beside them. */
  private readonly documents = new Map<string, StateDocument>();
  private readonly written = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly maxUserBytes: number;

  constructor(private readonly options: StateDocumentMapOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_STATE_TTL_MS;
    this.maxUserBytes = options.maxUserBytes ?? DEFAULT_MAX_USER_BYTES;
  }

  private expired(key: string, now = this.options.now()): boolean {
    const written = this.written.get(key);
    return written !== undefined && now - written >= this.ttlMs;
  }

  /** Whether any document is kept at all (a bot whose rules keep no state never has one). */
  get empty(): boolean {
    return this.documents.size === 0;
  }

  /** The document as decide sees it (no stamp); undefined when there is none or it expired. */
  get(key: string): StateDocument | undefined {
    const document = this.documents.get(key);
    return document === undefined || this.expired(key) ? undefined : document;
  }

  /** Stores what a line read back or a commit wrote (null deletes); a document's stamp is kept beside it. */
  store(writes: Iterable<[string, StateDocument | null]>): void {
    for (const [key, document] of writes) {
      if (document === null) {
        this.documents.delete(key);
        this.written.delete(key);
        continue;
      }
      const stamp = document[WRITTEN_KEY];
      if (typeof stamp === 'number') this.written.set(key, stamp);
      else this.written.delete(key);
      this.documents.set(key, withoutStamp(document));
    }
  }

  /**
   * The documents a commit writes, stamped with the time, as key → document (null: delete); without the
   * documents it may not write (a user's variables beyond the size bound keep their old value, logged).
   */
  changes(state: StateCommit, about: Record<string, unknown>): Map<string, StateDocument | null> {
    const now = this.options.now();
    const live = (key: string) => (this.expired(key, now) ? undefined : this.documents.get(key));
    const written = applyChanges(state.scope, state.changes, live);
    for (const [key, document] of written) {
      if (document === null) continue;
      if (Object.keys(document).length === 0) {
        written.set(key, null);
        continue;
      }
      if (key.startsWith('user:')) {
        const bytes = Buffer.byteLength(JSON.stringify(document));
        if (bytes > this.maxUserBytes) {
          this.options.logger.warn(
            { ...about, user_id: Number(key.slice(5)), bytes, limit: this.maxUserBytes },
            "a user's variables would pass state.max_user_bytes; this change to them is not kept",
          );
          written.delete(key);
          continue;
        }
      }
      written.set(key, { ...document, [WRITTEN_KEY]: now });
    }
    return written;
  }

  /** The live documents with their stamps, to keep them through a compaction or a copy (expired ones are left out, so forgotten). */
  *liveEntries(): Iterable<[string, StateDocument]> {
    const now = this.options.now();
    for (const [key, document] of this.documents) {
      const written = this.written.get(key);
      if (this.expired(key, now)) {
        this.documents.delete(key);
        this.written.delete(key);
      } else yield [key, written === undefined ? document : { ...document, [WRITTEN_KEY]: written }];
    }
  }

  /** Every unfinished flow (to schedule its timeout). */
  flows(): StoredFlow[] {
    const out: StoredFlow[] = [];
    for (const key of this.documents.keys()) {
      const match = FLOW_KEY.exec(key);
      const document = match ? this.get(key) : undefined;
      if (match && document) out.push({ chatId: Number(match[1]), userId: Number(match[2]), position: document as unknown as FlowPosition });
    }
    return out;
  }

  /** Every user with variables kept, with them (a broadcast's audience is chosen from these). */
  knownUsers(): KnownUser[] {
    const users: KnownUser[] = [];
    for (const key of this.documents.keys()) {
      if (!key.startsWith('user:')) continue;
      const variables = this.get(key);
      if (variables) users.push({ userId: Number(key.slice(5)), variables });
    }
    return users;
  }

  /** What is kept about a user (for `hearsay state show`). */
  userRecord(userId: number): UserState {
    const flows: UserState['flows'][number][] = [];
    for (const flow of this.flows()) {
      if (flow.userId !== userId) continue;
      const { flowId, stepId, values, lastActivity } = flow.position;
      flows.push({ chatId: flow.chatId, flowId, stepId, answers: values, lastActivity: new Date(lastActivity).toISOString() });
    }
    const members: NonNullable<UserState['members']>[number][] = [];
    for (const key of this.documents.keys()) {
      const match = MEMBER_KEY.exec(key);
      const variables = match && Number(match[2]) === userId ? this.get(key) : undefined;
      if (match && variables) members.push({ chatId: Number(match[1]), variables });
    }
    return { userId, variables: this.get(`user:${userId}`) ?? null, flows, ...(members.length > 0 ? { members } : {}) };
  }

  /** The writes that forget a user: their variables, member variables and flows in every chat (expired ones too). */
  forgetWrites(userId: number): Map<string, null> {
    const writes = new Map<string, null>();
    for (const key of this.documents.keys()) {
      const match = FLOW_KEY.exec(key) ?? MEMBER_KEY.exec(key);
      if (key === `user:${userId}` || (match && Number(match[2]) === userId)) writes.set(key, null);
    }
    return writes;
  }
}
