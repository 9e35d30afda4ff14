// The service's sending limits (per chat, per group, overall) kept in Redis, so that all replicas of a bot
// together stay within them, as one process does with its own limiter: sliding windows of the messages
// sent, one sorted set per window, taken and counted by one Lua script on Redis's clock (replicas' clocks
// may differ). The service counts a message when it arrives, which a busy replica may delay: so a message
// holds its place as if sent "now" until its answer comes back, and is then dated to that moment. While Redis
// cannot be reached the replica falls back to its own limiter.
import { sleep } from '../../api/backoff.js';
import { backgroundLimit, type RateLimiter, type RateLimitSettings, type RateLimitSlot } from '../../delivery/rate-limiter.js';
import type { Logger } from '../../log/logger.js';
import { script } from './redis-access.js';
import type { RedisLedger } from './redis-ledger.js';

/**
 * KEYS[1]: the bot's prefix. ARGV: windows, hold ms, for each window its key name, limit and length in ms, then
 * how soon to look again when in-flight messages fill a window → {1, id} when a message may go now (it is
 * counted in every window under `id`, dated `hold` ahead: until its answer comes back it may not have reached
 * the service yet, so it must not leave the window), or {0, ms to wait}.
 */
const TAKE_SCRIPT = `
local p = KEYS[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local hold = tonumber(ARGV[2])
local wait = 0
for i = 0, n - 1 do
  local key, limit, window = p .. 'rate:' .. ARGV[3 + 3 * i], tonumber(ARGV[4 + 3 * i]), tonumber(ARGV[5 + 3 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local at = tonumber(redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')[2])
    -- Still in flight (dated ahead until its answer re-dates it): look again soon.
    if at > now then wait = math.max(wait, tonumber(ARGV[2 + 3 * n + 1])) else wait = math.max(wait, at + window - now) end
  end
end
if wait > 0 then return {0, wait} end
local id = redis.call('INCR', p .. 'rate:seq')
for i = 0, n - 1 do
  local key = p .. 'rate:' .. ARGV[3 + 3 * i]
  redis.call('ZADD', key, now + hold, id)
  redis.call('PEXPIRE', key, hold + tonumber(ARGV[5 + 3 * i]))
end
return {1, id}`;

/** KEYS[1]: prefix. ARGV: id, then the window key names → re-dates the message to now (its answer came back: it arrived by then). */
const DONE_SCRIPT = `
local p = KEYS[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 2, #ARGV do redis.call('ZADD', p .. 'rate:' .. ARGV[i], 'XX', now, ARGV[1]) end
return 1`;

const TAKE = script(TAKE_SCRIPT);
const DONE = script(DONE_SCRIPT);

/** Added to every window, as the local limiter does: the service measures on arrival. */
const MARGIN_MS = 50;
/** Waiters of several replicas wake at about the same moment: spread them a little. */
const JITTER_MS = 15;
/**
 * How long a message sent and not answered yet counts as sent "now" at most (a replica that died while
 * sending frees its place after this), and how soon a sender looks again when such messages fill a window.
 */
const IN_FLIGHT_HOLD_MS = 10_000;
const IN_FLIGHT_LOOK_MS = 20;

export interface SharedRateLimiterOptions {
  ledger: RedisLedger;
  limits: RateLimitSettings;
  /** Used while Redis cannot be reached. */
  fallback: RateLimiter;
  logger: Logger;
}

export class SharedRateLimiter implements RateLimiter {
  private fallingBack = false;

  constructor(private readonly options: SharedRateLimiterOptions) {}

  async acquire(chatId: number | string, signal?: AbortSignal, background = false): Promise<RateLimitSlot> {
    const windows = this.windowsFor(chatId);
    // The low-priority lane (a broadcast) fills the overall window only up to its share: replies find room.
    const limits = windows.map((w) => (background && w.key === 'overall' ? { ...w, limit: backgroundLimit(w.limit) } : w));
    const args = [limits.length, IN_FLIGHT_HOLD_MS, ...limits.flatMap((w) => [w.key, w.limit, w.ms]), IN_FLIGHT_LOOK_MS];
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      let answer: [number, number];
      try {
        answer = (await this.options.ledger.runScript(TAKE, [], args)) as [number, number];
      } catch {
        return this.fallback(chatId, signal, background);
      }
      this.noteBack();
      const [granted, value] = answer;
      if (granted === 1) return { done: () => void this.options.ledger.runScript(DONE, [], [value, ...windows.map((w) => w.key)]).catch(() => undefined) };
      await sleep(value + Math.floor(Math.random() * JITTER_MS), signal);
    }
  }

  /** The windows a message to this chat counts in: overall, the chat's, and a group's per-minute one. */
  private windowsFor(chatId: number | string): Array<{ key: string; limit: number; ms: number }> {
    const { perChatPerSecond, perGroupPerMinute, overallPerSecond } = this.options.limits;
    const isGroup = typeof chatId === 'number' ? chatId < 0 : chatId.startsWith('-');
    return [
      { key: 'overall', ...window(overallPerSecond, 1000) },
      { key: `chat:${chatId}`, ...window(perChatPerSecond, 1000) },
      ...(isGroup ? [{ key: `group:${chatId}`, ...window(perGroupPerMinute, 60_000) }] : []),
    ];
  }

  private fallback(chatId: number | string, signal: AbortSignal | undefined, background: boolean): Promise<RateLimitSlot> {
    if (!this.fallingBack) {
      this.fallingBack = true;
      this.options.logger.warn('the shared rate limits in Redis cannot be reached; this replica keeps the limits on its own until they can');
    }
    return this.options.fallback.acquire(chatId, signal, background);
  }

  private noteBack(): void {
    if (!this.fallingBack) return;
    this.fallingBack = false;
    this.options.logger.info('the shared rate limits in Redis are used again');
  }
}

/** Fractional limits (0.5 per second) become one message per longer window, as in the local limiter. */
function window(limit: number, ms: number): { limit: number; ms: number } {
  return limit >= 1 ? { limit: Math.floor(limit), ms: ms + MARGIN_MS } : { limit: 1, ms: ms / limit + MARGIN_MS };
}
