// The outgoing limiter on a simulated clock: per chat, per group, overall; waits instead of dropping.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { composeCall } from '../../src/api/bot-api.js';
import { ApiError } from '../../src/api/errors.js';
import { retryTransformer } from '../../src/api/retry.js';
import type { ApiCallFn } from '../../src/api/types.js';
import { OutgoingRateLimiter, rateLimitTransformer } from '../../src/delivery/rate-limiter.js';
import { createLogger } from '../../src/log/logger.js';

function simulated(options: { perChatPerSecond: number; perGroupPerMinute: number; overallPerSecond: number }) {
  let now = 0;
  const timers: Array<{ at: number; wake(): void }> = [];
  const limiter = new OutgoingRateLimiter({
    ...options,
    marginMs: 0,
    now: () => now,
    sleep: (ms) => new Promise<void>((resolve) => timers.push({ at: now + ms, wake: resolve })),
  });
  /** Runs the clock until every waiter is done. */
  const settle = async () => {
    for (let guard = 0; guard < 100_000; guard++) {
      await new Promise((resolve) => setImmediate(resolve));
      if (timers.length === 0) return;
      timers.sort((a, b) => a.at - b.at);
      const next = timers.shift()!;
      now = Math.max(now, next.at);
      next.wake();
    }
  };
  return { limiter, settle, time: () => now, advance: (ms: number) => (now += ms) };
}

describe('OutgoingRateLimiter', () => {
  it('spaces one chat at its per-chat rate and keeps the order', async () => {
    const { limiter, settle, time } = simulated({ perChatPerSecond: 1, perGroupPerMinute: 20, overallPerSecond: 30 });
    const sentAt: number[] = [];
    const chain = (async () => {
      for (let i = 0; i < 4; i++) {
        await limiter.acquire(7);
        sentAt.push(time());
      }
    })();
    await settle();
    await chain;
    expect(sentAt).toEqual([0, 1000, 2000, 3000]);
  });

  it('counts a slow request from when its answer came back, since the service counts it on arrival', async () => {
    const { limiter, settle, time, advance } = simulated({ perChatPerSecond: 1, perGroupPerMinute: 20, overallPerSecond: 30 });
    const sentAt: number[] = [];
    const chain = (async () => {
      for (let i = 0; i < 3; i++) {
        const slot = await limiter.acquire(7);
        sentAt.push(time());
        advance(400); // the request takes 400 ms to be answered
        slot.done();
      }
    })();
    await settle();
    await chain;
    expect(sentAt).toEqual([0, 1400, 2800]);
  });

  it('lets a group have at most 20 per minute', async () => {
    const { limiter, settle, time } = simulated({ perChatPerSecond: 100, perGroupPerMinute: 20, overallPerSecond: 1000 });
    const sentAt: number[] = [];
    const chain = (async () => {
      for (let i = 0; i < 25; i++) {
        await limiter.acquire(-100123);
        sentAt.push(time());
      }
    })();
    await settle();
    await chain;
    expect(sentAt.filter((t) => t < 60_000)).toHaveLength(20);
    expect(sentAt[20]).toBeGreaterThanOrEqual(60_000);
  });

  it('caps the overall rate without making other chats wait for a busy one', async () => {
    const { limiter, settle, time } = simulated({ perChatPerSecond: 1, perGroupPerMinute: 20, overallPerSecond: 30 });
    const sentAt = new Map<number, number>();
    // The busy chat sends twice first; its second message waits a second, the 40 others must not.
    await limiter.acquire(1);
    const busySecond = limiter.acquire(1).then(() => sentAt.set(1, time()));
    const others = Array.from({ length: 40 }, (_, i) => limiter.acquire(100 + i).then(() => sentAt.set(100 + i, time())));
    await settle();
    await Promise.all([busySecond, ...others]);
    const times = [...sentAt.entries()].filter(([chat]) => chat >= 100).map(([, t]) => t);
    expect(times.filter((t) => t < 1000)).toHaveLength(29);
    expect(Math.max(...times)).toBeLessThan(2000);
    expect(sentAt.get(1)).toBeGreaterThanOrEqual(1000);
  });

  it('the low-priority lane (a broadcast) waits behind every other send and leaves a fifth of the overall limit free', async () => {
    const { limiter, settle, time, advance } = simulated({ perChatPerSecond: 1, perGroupPerMinute: 20, overallPerSecond: 10 });
    const broadcastAt: number[] = [];
    const background = Array.from({ length: 20 }, (_, i) => limiter.acquire(1000 + i, undefined, true).then(() => broadcastAt.push(time())));
    await settle();
    await Promise.all(background);
    // 8 of 10 a second: the first 8 at once, the next 8 a second later.
    expect(broadcastAt.filter((at) => at === 0)).toHaveLength(8);
    expect(broadcastAt.filter((at) => at === 1000)).toHaveLength(8);
    // With the lane full, a reply still goes at once (the free fifth), ahead of the broadcast sends waiting.
    advance(5000);
    const start = time();
    const full = Array.from({ length: 13 }, (_, i) => limiter.acquire(2000 + i, undefined, true).then(() => time()));
    const reply = limiter.acquire(3000).then(() => time());
    await settle();
    // (The lane looks again every 20 ms while it waits: the reply is served at the next look.)
    expect(await reply).toBeLessThanOrEqual(start + 20);
    expect((await Promise.all(full)).filter((at) => at > start)).toHaveLength(5);
  });

  it("a send that went out, at once or after waiting its overall turn, leaves no listener on its caller's signal", async () => {
    // The pipeline passes one signal to every task for the process's life: a listener left per message would
    // gather there for as long as the bot runs.
    const { limiter, settle } = simulated({ perChatPerSecond: 1, perGroupPerMinute: 20, overallPerSecond: 10 });
    const shared = new AbortController();
    const sends = Array.from({ length: 40 }, (_, i) => limiter.acquire(100 + i, shared.signal).then((slot) => slot.done()));
    expect(getEventListeners(shared.signal, 'abort').length).toBeGreaterThan(0);
    await settle();
    await Promise.all(sends);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('a send waiting for its overall turn gives up when its signal aborts; the others still go', async () => {
    const { limiter, settle } = simulated({ perChatPerSecond: 1, perGroupPerMinute: 20, overallPerSecond: 1 });
    await limiter.acquire(1);
    const controller = new AbortController();
    const cancelled = limiter.acquire(2, controller.signal);
    const other = limiter.acquire(3);
    controller.abort();
    await expect(cancelled).rejects.toBeDefined();
    await settle();
    await expect(other).resolves.toBeDefined();
  });

  it('gives up waiting when the signal aborts', async () => {
    const limiter = new OutgoingRateLimiter({ perChatPerSecond: 1, perGroupPerMinute: 20, overallPerSecond: 30 });
    await limiter.acquire(5);
    const controller = new AbortController();
    const waiting = limiter.acquire(5, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeDefined();
  });

  it("as a transformer: each attempt of a send waits its chat's turn (a retry too); other methods pass at once", async () => {
    const { limiter, settle, time } = simulated({ perChatPerSecond: 1, perGroupPerMinute: 20, overallPerSecond: 30 });
    const calls: Array<{ method: string; at: number }> = [];
    let failNext = true;
    const wire: ApiCallFn = async (method) => {
      calls.push({ method, at: time() });
      if (method === 'sendmessage' && failNext) {
        failNext = false;
        throw new ApiError(method, 502, 'Bad Gateway');
      }
      return true as never;
    };
    const retry = retryTransformer({ logger: createLogger({ level: 'silent' }), sleep: async () => undefined });
    const call = composeCall(wire, [retry, rateLimitTransformer(limiter)]);
    const sending = call('sendmessage', { chat_id: 7, text: 'a' });
    const asking = call('getme', undefined);
    await settle();
    await Promise.all([sending, asking]);
    expect(calls.filter((c) => c.method === 'sendmessage').map((c) => c.at)).toEqual([0, 1000]);
    expect(calls.filter((c) => c.method === 'getme').map((c) => c.at)).toEqual([0]);
  });
});
