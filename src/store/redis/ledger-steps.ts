// An update's steps in Redis after it is stored, its begin mark with its state read and its commit, gathered: the
// updates of many chats reaching a step while the store's previous batch is unanswered go to Redis as one script
// call and one durable wait (see request-batches.ts), each still answered on its own. A state change of no update (a flow's
// timeout) is committed on its own, never in a batch.
import { script, type RedisAccess } from './redis-access.js';
import { RequestBatches } from './request-batches.js';
import { BEGIN_LOAD_SCRIPT, COMMIT_SCRIPT } from './step-scripts.js';

const SCRIPTS = { beginLoad: script(BEGIN_LOAD_SCRIPT), commit: script(COMMIT_SCRIPT) };

/** One commit: the update's id (null for state of no update) and fingerprint, its documents and its outbox changes. */
export interface CommitRecord {
  readonly id: number | null;
  readonly fingerprint: string;
  /** Store keys of the documents it writes. */
  readonly keys: readonly string[];
  /** Each document's value as read ('' when absent). */
  readonly reads: readonly string[];
  /** Each document's value to write ('' to delete). */
  readonly values: readonly string[];
  /** The outbox changes ('' for none; see outbox-scripts.ts). */
  readonly outbox: string;
}

interface BeginItem {
  readonly id: number;
  readonly keys: readonly string[];
}

/** An update's begin: its documents' values ('' when absent), or 'fenced' (another replica took it over). */
export type BeginAnswer = readonly string[] | 'fenced';

/** What the steps share with their ledger. */
export interface LedgerStepsOptions {
  readonly store: RedisAccess;
  /** The replica's name in the store (see RedisLedger.owner). */
  readonly owner: string;
  readonly now: () => number;
  /** How many done ids are kept (twice this at most). */
  readonly capacity: number;
  /** Conversation state unchanged this long is forgotten ('' for never). */
  readonly stateTtlMs: number | '';
}

/** A replica ledger's begin and commit steps, each gathered while the store's previous batch is unanswered (see the module's comment). */
export class LedgerSteps {
  private readonly begins: RequestBatches<BeginItem, BeginAnswer>;
  private readonly commits: RequestBatches<CommitRecord, string>;

  constructor(private readonly options: LedgerStepsOptions) {
    const { gather } = options.store.pacer;
    this.begins = new RequestBatches((_, items) => this.beginBatch(items), gather, 'fenced');
    this.commits = new RequestBatches((_, records) => this.commitBatch(records), gather, 'conflict');
  }

  /** The update's begin mark, with its documents (store keys) read: none for the mark alone. */
  beginLoad(id: number, keys: readonly string[]): Promise<BeginAnswer> {
    return this.begins.run('', { id, keys });
  }

  /** The commit, durable once 'ok'; 'conflict' when one of its documents changed since it was read (nothing written). */
  commit(record: CommitRecord): Promise<string> {
    return record.id === null ? this.commitBatch([record]).then(([answer]) => answer ?? 'conflict') : this.commits.run('', record);
  }

  private async beginBatch(items: readonly BeginItem[]): Promise<BeginAnswer[]> {
    const args: Array<string | number> = [this.options.owner];
    for (const item of items) args.push(item.id, item.keys.length);
    const flat = (await this.options.store.runPacedScript(
      SCRIPTS.beginLoad,
      items.flatMap((item) => item.keys),
      args,
    )) as string[];
    let at = 0;
    return items.map((item) => {
      const answer: BeginAnswer = flat[at] === 'ok' ? flat.slice(at + 1, at + 1 + item.keys.length) : 'fenced';
      at += 1 + item.keys.length;
      return answer;
    });
  }

  private async commitBatch(records: readonly CommitRecord[]): Promise<string[]> {
    const { store, now, capacity, stateTtlMs } = this.options;
    const args: Array<string | number> = [now(), capacity, stateTtlMs];
    for (const record of records) args.push(record.id ?? '', record.fingerprint, record.keys.length, ...record.reads, ...record.values, record.outbox);
    const answers = (await store.runPacedScript(
      SCRIPTS.commit,
      records.flatMap((record) => record.keys),
      args,
    )) as string[];
    if (answers.includes('ok')) await store.durable();
    return answers;
  }
}
