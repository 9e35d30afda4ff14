// Optional sending limits like the real service's (about 1 message per second per chat, 30 per second
// per bot overall, 20 per minute per group), off by default; beyond them a sending method answers 429 with retry_after.
import { tooManyRequests } from './api-failure.js';

export interface RateLimitOptions {
  perChatPerSecond?: number;
  overallPerSecond?: number;
  perGroupPerMinute?: number;
}

const WINDOW_MS = 1000;
const GROUP_WINDOW_MS = 60_000;

export class RateLimiter {
  private readonly limits: Required<RateLimitOptions> | undefined;
  private readonly sent = new Map<string, number[]>();

  constructor(options: boolean | RateLimitOptions | undefined) {
    if (!options) return;
    const given = options === true ? {} : options;
    this.limits = {
      perChatPerSecond: given.perChatPerSecond ?? 1,
      overallPerSecond: given.overallPerSecond ?? 30,
      perGroupPerMinute: given.perGroupPerMinute ?? 20,
    };
  }

  /** Throws the 429 failure when a message from `botId` to `chatId` would exceed a limit; else counts it. */
  admit(botId: number, chatId: number): void {
    if (!this.limits) return;
    const now = Date.now();
    const chatKey = `${botId}:${chatId}`;
    const botKey = `${botId}`;
    // A group (negative id) also has a per-minute budget, counted apart from the per-second one.
    const groupKey = chatId < 0 ? `${botId}:${chatId}:minute` : undefined;
    const wait = Math.max(
      this.waitMs(chatKey, now, this.limits.perChatPerSecond, WINDOW_MS),
      this.waitMs(botKey, now, this.limits.overallPerSecond, WINDOW_MS),
      groupKey ? this.waitMs(groupKey, now, this.limits.perGroupPerMinute, GROUP_WINDOW_MS) : 0,
    );
    if (wait > 0) throw tooManyRequests(Math.max(1, Math.ceil(wait / 1000)));
    this.record(chatKey, now);
    this.record(botKey, now);
    if (groupKey) this.record(groupKey, now);
  }

  private waitMs(key: string, now: number, limit: number, windowMs: number): number {
    const recent = (this.sent.get(key) ?? []).filter((time) => now - time < windowMs);
    this.sent.set(key, recent);
    if (recent.length < limit) return 0;
    return windowMs - (now - (recent[recent.length - limit] ?? now));
  }

  private record(key: string, now: number): void {
    this.sent.get(key)?.push(now);
  }
}
