// Test support: reads a Server-Sent Events stream over real HTTP and hands out events (and comments)
// one at a time, with a bounded wait for each.
export interface SseItem {
  event?: string;
  data?: string;
  comment?: string;
}

export class SseReader {
  private buffer = '';
  private readonly items: SseItem[] = [];
  private waiter: (() => void) | undefined;
  private ended = false;

  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {
    void this.pump();
  }

  static async open(url: string): Promise<SseReader> {
    const abort = new AbortController();
    const response = await fetch(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
    return new SseReader(response, abort);
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.response.body as unknown as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = this.buffer.indexOf('\n\n')) >= 0) {
          const block = this.buffer.slice(0, end);
          this.buffer = this.buffer.slice(end + 2);
          this.items.push(parseBlock(block));
        }
        this.waiter?.();
      }
    } catch {
      // Aborted by close().
    }
    this.ended = true;
    this.waiter?.();
  }

  /** The next item that satisfies `accept` (earlier ones are dropped); rejects after `timeoutMs`. */
  async next(accept: (item: SseItem) => boolean = () => true, timeoutMs = 5000): Promise<SseItem> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.items.length > 0) {
        const item = this.items.shift()!;
        if (accept(item)) return item;
      }
      if (this.ended) throw new Error('the event stream ended');
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('no matching event arrived in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiter = () => {
          clearTimeout(timer);
          this.waiter = undefined;
          resolve();
        };
      });
    }
  }

  /** Resolves when the server ends the stream. */
  async endOfStream(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error('the event stream did not end');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.abort.abort();
  }
}

function parseBlock(block: string): SseItem {
  const item: SseItem = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) item.comment = line.slice(1).trim();
    else if (line.startsWith('event: ')) item.event = line.slice(7);
    else if (line.startsWith('data: ')) item.data = (item.data === undefined ? '' : `${item.data}\n`) + line.slice(6);
  }
  return item;
}
