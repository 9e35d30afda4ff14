// Watches a sandbox in-process and keeps, per bot, which update each user message and each button press
// became, every reply the bot sent, and every press answer and edit it tried (refused ones too), so a test
// can check "answered exactly once, in order" across all chats at once.
import type { Sandbox } from '../../src/sandbox/index.js';

export interface LedgerEntry {
  userId: number;
  text: string;
  updateId: number;
}

/** A press of an inline button: the callback query the bot got, in update_id order. */
export interface PressEntry {
  userId: number;
  data: string;
  callbackQueryId: string;
  updateId: number;
}

/** One answercallbackquery or editmessagetext call of the bot, in the order the sandbox ran them. */
export interface CallEntry {
  ok: boolean;
  /** The answer's text, or the edit's new text ('' when none). */
  text: string;
  /** The failure's description when refused. */
  description?: string;
}

/** One event a user saw, in the order the sandbox stored it: a reply, or the first accepted answer of a press. */
export interface SeenEntry {
  kind: 'reply' | 'answer';
  text: string;
}

export class ReplyLedger {
  /** The user messages to the bot, in update_id order. */
  readonly sent: LedgerEntry[] = [];
  /** The button presses sent to the bot, in update_id order. */
  readonly presses: PressEntry[] = [];
  /** The bot's replies per user, in the order the sandbox stored them. */
  readonly replies = new Map<number, string[]>();
  /** answercallbackquery calls per callback query id. */
  readonly answers = new Map<string, CallEntry[]>();
  /** editmessagetext calls per chat id. */
  readonly edits = new Map<number, CallEntry[]>();
  /** Per user: the replies and the accepted press answers, in the order they happened. */
  readonly seen = new Map<number, SeenEntry[]>();
  private total = 0;
  private answered = 0;
  private readonly pressOf = new Map<string, PressEntry>();
  private readonly waiters = new Set<() => void>();
  private readonly unsubscribe: Array<() => void>;

  constructor(sandbox: Sandbox, botUsername: string) {
    const bot = botUsername.toLowerCase();
    const add = <K, V>(map: Map<K, V[]>, key: K, value: V) => map.set(key, [...(map.get(key) ?? []), value]);
    this.unsubscribe = [
      sandbox.onMessage(({ userId, peer, message }) => {
        if (peer.toLowerCase() !== bot || !message.from?.is_bot) return;
        add(this.replies, userId, message.text ?? '');
        add(this.seen, userId, { kind: 'reply', text: message.text ?? '' });
        this.total += 1;
        this.wake();
      }),
      sandbox.onUpdate(({ bot: to, update }) => {
        if (to.toLowerCase() !== bot) return;
        if (update.message) this.sent.push({ userId: update.message.chat.id, text: update.message.text ?? '', updateId: update.update_id });
        const query = update.callback_query;
        if (query?.message) {
          const press = { userId: query.message.chat.id, data: query.data ?? '', callbackQueryId: query.id, updateId: update.update_id };
          this.presses.push(press);
          this.pressOf.set(query.id, press);
        }
      }),
      sandbox.onBotApiCall(({ bot: caller, method, params, ok, description }) => {
        if (caller.toLowerCase() !== bot) return;
        const call = { ok, text: String(params.text ?? ''), ...(description !== undefined ? { description } : {}) };
        if (method === 'editmessagetext') add(this.edits, Number(params.chat_id), call);
        if (method !== 'answercallbackquery') return;
        const id = String(params.callback_query_id);
        add(this.answers, id, call);
        const press = this.pressOf.get(id);
        if (!ok || !press) return;
        add(this.seen, press.userId, { kind: 'answer', text: call.text });
        this.answered += 1;
        this.wake();
      }),
    ];
  }

  get replyCount(): number {
    return this.total;
  }

  /** Presses answered (the first accepted answer of each). */
  get answerCount(): number {
    return this.answered;
  }

  /** Resolves once the bot has sent at least `count` replies in all; rejects after `timeoutMs`. */
  waitForReplies(count: number, timeoutMs: number): Promise<void> {
    return this.waitFor(
      () => this.total >= count,
      timeoutMs,
      () => `expected ${count} replies, got ${this.total}`,
    );
  }

  /** Resolves once replies and answered presses together reach `count`; rejects after `timeoutMs`. */
  waitForHandled(count: number, timeoutMs: number): Promise<void> {
    return this.waitFor(
      () => this.total + this.answered >= count,
      timeoutMs,
      () => `expected ${count} replies and answered presses, got ${this.total} + ${this.answered}`,
    );
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
    for (const stop of this.unsubscribe) stop();
  }

  private wake(): void {
    for (const wake of this.waiters) wake();
  }

  private waitFor(done: () => boolean, timeoutMs: number, failure: () => string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        stop();
        resolve();
      };
      const timer = setTimeout(() => {
        stop();
        reject(new Error(failure()));
      }, timeoutMs);
      const stop = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }
}
