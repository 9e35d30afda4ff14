// The conversation state of one bot in Redis: one JSON document per user, chat, member and running flow (the layout of
// src/store/state-documents.ts) under the bot's key prefix, and the set of running flows for the timeout
// timers. Reads are plain commands; every write goes through the ledger's commit script, which this module
// prepares: what was read (the script refuses if it changed since) and what to write.
import type { RedisClient } from './redis-connection.js';
import type { ConversationState, FlowPosition } from '../../engine/state.js';
import { MAX_STATE_LINE_BYTES, type StoredFlow, type UserState } from '../records.js';
import type { Logger } from '../../log/logger.js';
import type { KnownUser } from '../../pipeline/broadcast-port.js';
import type { StateCommit, StateScope } from '../../pipeline/ports.js';
import { Redis } from 'ioredis';
import { scanKeys } from './untagged-keys.js';
import { applyChanges, commitKeys, documentKeys, stateOf, type StateDocument } from '../state-documents.js';

/** Users' documents read at once by {@link StateDocuments.knownUsers}. */
const KNOWN_USERS_BATCH = 1000;

/** What the documents need from the ledger that owns the connection. */
export interface StateDocumentsAccess {
  readonly client: RedisClient;
  /** Runs one store operation (a failure becomes a StoreUnavailableError). */
  command<T>(operation: () => Promise<T>): Promise<T>;
  /** The full key of a name under the bot's prefix. */
  key(name: string): string;
  /** Resolves once what was written is on the server's disk. */
  durable(): Promise<void>;
  readonly logger: Logger;
  /** `state.max_user_bytes`. */
  readonly maxUserBytes: number;
}

/** A commit's writes by store key: the raw value read ('' when absent) and the value to write ('' to delete). */
export type StateWrites = Map<string, { read: string; write: string }>;

/** Reads documents by store key in one step (an MGET, or a script that also does something else) → each value, null or '' when absent. */
export type DocumentReader = (keys: string[]) => Promise<Array<string | null>>;

/** Scopes whose last read is remembered for their commit (the oldest forgotten beyond this). */
const REMEMBERED_SCOPES = 4096;

export class StateDocuments {
  /**
   * The raw documents last loaded per scope (chat and user), until a commit of that scope takes them: the commit
   * checks against these instead of reading again (the commit script refuses if any changed since: then it reads).
   */
  private readonly lastRead = new Map<string, Map<string, string>>();

  constructor(private readonly access: StateDocumentsAccess) {}

  private readonly mget: DocumentReader = (keys) => this.access.command(() => this.access.client.mget(keys));

  private remember(scope: StateScope, values: Map<string, string>): void {
    const key = `${scope.chatId}:${scope.userId}`;
    this.lastRead.delete(key);
    this.lastRead.set(key, values);
    if (this.lastRead.size > REMEMBERED_SCOPES) this.lastRead.delete(this.lastRead.keys().next().value!);
  }

  /** What the scope's last load read (once: taken), when it covers every one of `keys`. */
  private recall(scope: StateScope, keys: readonly string[]): Map<string, string> | undefined {
    const key = `${scope.chatId}:${scope.userId}`;
    const values = this.lastRead.get(key);
    this.lastRead.delete(key);
    return values && keys.every((k) => values.has(k)) ? values : undefined;
  }

  private stateKey(documentKey: string): string {
    return this.access.key(`state:${documentKey}`);
  }

  async flows(): Promise<StoredFlow[]> {
    const documents = await this.access.command(() => this.access.client.smembers(this.access.key('flows')));
    if (documents.length === 0) return [];
    const raw = await this.access.command(() => this.access.client.mget(documents.map((key) => this.stateKey(key))));
    const flows: StoredFlow[] = [];
    documents.forEach((document, i) => {
      const match = /^flow:(-?\d+):(-?\d+)$/.exec(document);
      const json = raw[i];
      // Expired (state.ttl) or malformed: no flow to time out.
      if (!match || !json) return;
      flows.push({ chatId: Number(match[1]), userId: Number(match[2]), position: JSON.parse(json) as FlowPosition });
    });
    return flows;
  }

  async userRecord(userId: number): Promise<UserState> {
    const variables = parseDocument((await this.access.command(() => this.access.client.get(this.stateKey(`user:${userId}`)))) ?? '') ?? null;
    const flows = (await this.flows())
      .filter((flow) => flow.userId === userId)
      .map(({ chatId, position: { flowId, stepId, values, lastActivity } }) => ({
        chatId,
        flowId,
        stepId,
        answers: values,
        lastActivity: new Date(lastActivity).toISOString(),
      }));
    const members = await this.membersOf(userId);
    return { userId, variables, flows, ...(members.length > 0 ? { members } : {}) };
  }

  /** The user's variables in each chat (member.*), found by SCAN: an operator's request, never on the path of an update. */
  private async membersOf(userId: number): Promise<NonNullable<UserState['members']>[number][]> {
    const prefix = this.stateKey('member:');
    const { client } = this.access;
    // A cluster keeps the bot's keys (one hash tag) on one node; each master is asked.
    const nodes = client instanceof Redis ? [client] : client.nodes('master');
    const keys = await this.access.command(async () => (await Promise.all(nodes.map((node) => scanKeys(node, `${prefix}*:${userId}`)))).flat());
    if (keys.length === 0) return [];
    const raw = await this.access.command(() => this.access.client.mget(keys));
    return keys.flatMap((key, i) => {
      const variables = parseDocument(raw[i] ?? '');
      const match = /^(-?\d+):(-?\d+)$/.exec(key.slice(prefix.length));
      return variables && match && Number(match[2]) === userId ? [{ chatId: Number(match[1]), variables }] : [];
    });
  }

  /** Every user with variables kept, with them, found by SCAN: an operator's request (a broadcast), never on the path of an update. */
  async knownUsers(): Promise<KnownUser[]> {
    const prefix = this.stateKey('user:');
    const { client } = this.access;
    const nodes = client instanceof Redis ? [client] : client.nodes('master');
    const keys = await this.access.command(async () => (await Promise.all(nodes.map((node) => scanKeys(node, `${prefix}*`)))).flat());
    const users: KnownUser[] = [];
    for (let start = 0; start < keys.length; start += KNOWN_USERS_BATCH) {
      const batch = keys.slice(start, start + KNOWN_USERS_BATCH);
      const raw = await this.access.command(() => this.access.client.mget(batch));
      batch.forEach((key, i) => {
        const variables = parseDocument(raw[i] ?? '');
        const userId = Number(key.slice(prefix.length));
        if (variables && Number.isSafeInteger(userId)) users.push({ userId, variables });
      });
    }
    return users;
  }

  async forgetUser(userId: number): Promise<UserState> {
    const record = await this.userRecord(userId);
    const flowDocuments = record.flows.map((flow) => `flow:${flow.chatId}:${userId}`);
    const memberDocuments = (record.members ?? []).map((member) => `member:${member.chatId}:${userId}`);
    const multi = this.access.client.multi().del(this.stateKey(`user:${userId}`), ...[...flowDocuments, ...memberDocuments].map((key) => this.stateKey(key)));
    if (flowDocuments.length > 0) multi.srem(this.access.key('flows'), ...flowDocuments);
    await this.access.command(() => multi.exec());
    await this.access.durable();
    return record;
  }

  /**
   * The documents a commit writes, by store key: the raw value read ('' when absent) and the value to write
   * ('' to delete); null when there is nothing to write, 'stale' when the flow is no longer at `flowWas`.
   * `reuse`: the values the scope's last load read may stand for what is stored now (a first attempt).
   */
  async writesFor(id: number | null, state: StateCommit, reuse: boolean): Promise<StateWrites | null | 'stale'> {
    const keys = commitKeys(state.scope, state.changes);
    let read = reuse ? this.recall(state.scope, keys) : undefined;
    if (!read) {
      const raw = await this.mget(keys.map((key) => this.stateKey(key)));
      read = new Map(keys.map((key, i) => [key, raw[i] ?? '']));
    }
    const flowKey = documentKeys(state.scope).flow;
    if (state.flowWas !== undefined && flowKey !== null) {
      // Decided on another flow position than the one stored now: another replica got there first.
      if (JSON.stringify(parseDocument(read.get(flowKey)) ?? null) !== JSON.stringify(state.flowWas)) return 'stale';
    }
    const documents = applyChanges(state.scope, state.changes, (key) => parseDocument(read.get(key)));
    const writes: StateWrites = new Map();
    let bytes = 0;
    const { maxUserBytes } = this.access;
    for (const [key, document] of documents) {
      const write = document === null ? '' : JSON.stringify(document);
      if (key.startsWith('user:') && Buffer.byteLength(write) > maxUserBytes) {
        // As on the file store: the user's variables keep their old value; the update still counts as handled.
        this.access.logger.warn(
          { update_id: id, user_id: Number(key.slice(5)), bytes: Buffer.byteLength(write), limit: maxUserBytes },
          "a user's variables would pass state.max_user_bytes; this change to them is not kept",
        );
        continue;
      }
      bytes += write.length;
      writes.set(this.stateKey(key), { read: read.get(key) ?? '', write });
    }
    // The commit script checks what was read is unchanged: the flow too, even when these changes leave it be.
    if (state.flowWas !== undefined && flowKey !== null && !documents.has(flowKey)) {
      writes.set(this.stateKey(flowKey), { read: read.get(flowKey)!, write: read.get(flowKey)! });
    }
    if (bytes > MAX_STATE_LINE_BYTES) {
      this.access.logger.error({ update_id: id, bytes }, "conversation state too large to keep; this update's state changes are dropped");
      return null;
    }
    return writes.size > 0 ? writes : null;
  }

  /** The store keys of the scope's documents, as {@link load} hands them to its reader. */
  storeKeys(scope: StateScope): string[] {
    return documentsOf(scope).map((key) => this.stateKey(key));
  }

  /** The scope's state, read by `read` (one MGET unless told otherwise; called even with no documents to read). */
  async load(scope: StateScope, read?: DocumentReader): Promise<ConversationState> {
    const keys = documentsOf(scope);
    if (keys.length === 0 && !read) return stateOf(scope, () => undefined);
    const raw = await (read ?? this.mget)(keys.map((key) => this.stateKey(key)));
    const values = new Map(keys.map((key, i) => [key, raw[i] ?? '']));
    this.remember(scope, values);
    return stateOf(scope, (key) => parseDocument(values.get(key)));
  }
}

/** The scope's documents (user, chat, member, flow: those it has). */
function documentsOf(scope: StateScope): string[] {
  return Object.values(documentKeys(scope)).filter((key): key is string => key !== null);
}

function parseDocument(raw: string | undefined): StateDocument | undefined {
  return raw ? (JSON.parse(raw) as StateDocument) : undefined;
}
