// Watches a sandbox in-process and keeps, per bot, which update each user message became and every reply
// the bot sent, so a test can check "answered exactly once, in order" across all chats at once.
import type { Sandbox } from '../../src/sandbox/index.js';

export interface LedgerEntry {
  userId: number;
  text: string;
  updateId: number;
}

export class ReplyLedger {
  /** The user messages to the bot, in update_id order (the sandbox numbers updates as messages arrive). */
  readonly sent: LedgerEntry[] = [];
  /** The bot's replies per user, in the order the sandbox stored them. */
  readonly replies = new Map<number, string[]>();
  private total = 0;
  private readonly waiters = new Set<() => void>();
  private readonly unsubscribe: () => void;

  constructor(sandbox: Sandbox, botUsername: string) {
    const bot = botUsername.toLowerCase();
    this.unsubscribe = sandbox.onMessage(({ userId, peer, message }) => {
      if (peer.toLowerCase() !== bot) return;
      if (message.from?.is_bot) {
        const list = this.replies.get(userId) ?? [];
        list.push(message.text ?? '');
        this.replies.set(userId, list);
        this.total += 1;
        for (const wake of this.waiters) wake();
      } else {
        this.sent.push({ userId, text: message.text ?? '', updateId: this.sent.length + 1 });
      }
    });
  }

  get replyCount(): number {
    return this.total;
  }

  /** Resolves once the bot has sent at least `count` replies in all; rejects after `timeoutMs`. */
  waitForReplies(count: number, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (this.total < count) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`expected ${count} replies, got ${this.total}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Texts replied more than once to `userId`. */
  duplicatesFor(userId: number): string[] {
    const seen = new Set<string>();
    const twice: string[] = [];
    for (const text of this.replies.get(userId) ?? []) {
      if (seen.has(text)) twice.push(text);
      else seen.add(text);
    }
    return twice;
  }

  close(): void {
    this.unsubscribe();
  }
}
