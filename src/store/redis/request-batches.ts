// A Redis step asked for by many updates at about the same time, sent as one script call (one request, one
// durable wait), each caller still getting its own answer. Webhook POSTs, a polling leader's fetched batch and the
// updates that reach their state read or their commit come in callbacks of their own, so a batch is gathered at
// least until the event loop has run what its sockets brought (setImmediate, when the Redis client would send it
// anyway), and, paced (RequestPacer), for as long as the store's previous batch is unanswered.

/** When a gathered batch is sent: `setImmediate`, or a {@link RequestPacer}'s gather. */
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

/**
 * Paces one store's batched steps: a batch asked for while an earlier one is still unanswered waits for that
 * answer (then for the end of that pass of the event loop), so that under load each request carries what
 * gathered meanwhile and Redis serves many updates per pass of its loop (one read, one AOF write and sync),
 * while at a low rate (nothing unanswered) a batch goes as soon as it would have without it.
 */
export class RequestPacer {
  private unanswered = 0;
  private waiting: Array<() => void> = [];
  private scheduled = false;

  /** The {@link Gather} of batches paced by this pacer. */
  readonly gather: Gather = (send) => {
    this.waiting.push(send);
    this.schedule();
  };

  /** A paced batch's request: the next ones wait until it is answered (or failed). */
  track<T>(request: Promise<T>): Promise<T> {
    this.unanswered += 1;
    const settled = (): void => {
      this.unanswered -= 1;
      this.schedule();
    };
    request.then(settled, settled);
    return request;
  }

  private schedule(): void {
    if (this.scheduled || this.unanswered > 0 || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.unanswered > 0) return;
      const sends = this.waiting;
      this.waiting = [];
      for (const send of sends) send();
    });
  }
}
