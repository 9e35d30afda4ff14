// Optional sending limits like the real service's (about 1 message per second per chat, 30 per second
// per bot overall), off by default; beyond them sendmessage answers 429 with retry_after.
import { tooManyRequests } from './api-failure.js';

export interface RateLimitOptions {
  perChatPerSecond?: number;
  overallPerSecond?: number;
}

const WINDOW_MS = 1000;

export class RateLimiter {
  private readonly limits: Required<RateLimitOptions> | undefined;
  private readonly sent = new Map<string, number[]>();

  constructor(options: boolean | RateLimitOptions | undefined) {
    if (!options) return;
    const given = options === true ? {} : options;
    this.limits = { perChatPerSecond: given.perChatPerSecond ?? 1, overallPerSecond: given.overallPerSecond ?? 30 };
  }

  /** Throws the 429 failure when a message from `botId` to `chatId` would exceed a limit; else counts it. */
  admit(botId: number, chatId: number): void {
    if (!this.limits) return;
    const now = Date.now();
    const chatKey = `${botId}:${chatId}`;
    const botKey = `${botId}`;
    const wait = Math.max(this.waitMs(chatKey, now, this.limits.perChatPerSecond), this.waitMs(botKey, now, this.limits.overallPerSecond));
    if (wait > 0) throw tooManyRequests(Math.max(1, Math.ceil(wait / 1000)));
    this.record(chatKey, now);
    this.record(botKey, now);
  }

  private waitMs(key: string, now: number, limit: number): number {
    const recent = (this.sent.get(key) ?? []).filter((time) => now - time < WINDOW_MS);
    this.sent.set(key, recent);
    if (recent.length < limit) return 0;
    return WINDOW_MS - (now - (recent[recent.length - limit] ?? now));
  }

  private record(key: string, now: number): void {
    this.sent.get(key)?.push(now);
  }
}
