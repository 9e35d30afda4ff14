// A Redis step asked for by many updates at about the same time, sent as one script call (one request, one
// durable wait), each caller still getting its own answer. The polling leader hands a fetched batch over in one
// synchronous loop, so its accepts are gathered until the next microtask; webhook POSTs, and the updates that
// reach their state read or their commit, come in callbacks of their own, so those are gathered until the event
// loop has run what its sockets brought (setImmediate), the moment the Redis client would send them anyway.

/** When a gathered batch is sent: `queueMicrotask` or `setImmediate`. */
export type Gather = (send: () => void) => void;

/** Sends a batch gathered under one key → one answer per item, in order. */
export type SendBatch<Item, Answer> = (key: string, items: readonly Item[]) => Promise<Answer[]>;

interface Waiting<Item, Answer> {
  readonly item: Item;
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: unknown) => void;
}

/** Gathers the items asked for one step and sends them together (see the module's comment). */
export class RequestBatches<Item, Answer> {
  private gathering: { key: string; waiting: Array<Waiting<Item, Answer>> } | null = null;

  /** `missing`: the answer for an item the batch's answers leave out. */
  constructor(
    private readonly send: SendBatch<Item, Answer>,
    private readonly gather: Gather,
    private readonly missing: Answer,
  ) {}

  /**
   * The item's answer, sent with the others asked for under the same key before the batch goes (a key keeps
   * apart what one call cannot carry together: the polling leader's fencing token).
   */
  run(key: string, item: Item): Promise<Answer> {
    if (this.gathering && this.gathering.key !== key) this.flush();
    if (!this.gathering) {
      this.gathering = { key, waiting: [] };
      this.gather(() => this.flush());
    }
    const { waiting } = this.gathering;
    return new Promise<Answer>((resolve, reject) => waiting.push({ item, resolve, reject }));
  }

  private flush(): void {
    const batch = this.gathering;
    this.gathering = null;
    if (!batch || batch.waiting.length === 0) return;
    this.send(
      batch.key,
      batch.waiting.map((w) => w.item),
    ).then(
      (answers) => batch.waiting.forEach((w, i) => w.resolve(answers[i] ?? this.missing)),
      (error: unknown) => batch.waiting.forEach((w) => w.reject(error)),
    );
  }
}
