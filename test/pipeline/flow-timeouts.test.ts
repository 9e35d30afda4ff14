// Flow timers: one per user and chat, replaced on each commit, dropped on leaving, firing once when due,
// also for deadlines beyond what one Node timer can wait and for deadlines already past.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FlowTimers, type FlowTimerKey } from '../../src/pipeline/flow-timeouts.js';

const DAY = 86_400_000;

describe('FlowTimers', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('fires once at the deadline; setting it again moves it; null drops it', () => {
    const fired: FlowTimerKey[] = [];
    const timers = new FlowTimers((key) => fired.push(key));
    const ada = { chatId: -100, userId: 1 };
    const bob = { chatId: -100, userId: 2 };
    timers.set(ada, Date.now() + 60_000);
    timers.set(bob, Date.now() + 60_000);
    vi.advanceTimersByTime(30_000);
    timers.set(ada, Date.now() + 60_000); // Ada answered: her deadline moves
    timers.set(bob, null); // Bob left the flow
    vi.advanceTimersByTime(59_999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([ada]);
    vi.advanceTimersByTime(10 * DAY);
    expect(fired).toEqual([ada]);
    expect(timers.size).toBe(0);
  });

  it('reaches a 30-day deadline (beyond one Node timer) and fires a past deadline at once', () => {
    const fired: number[] = [];
    const timers = new FlowTimers((key) => fired.push(key.userId));
    timers.set({ chatId: 1, userId: 1 }, Date.now() + 30 * DAY);
    timers.set({ chatId: 1, userId: 2 }, Date.now() - 5_000);
    vi.advanceTimersByTime(0);
    expect(fired).toEqual([2]);
    vi.advanceTimersByTime(30 * DAY - 1);
    expect(fired).toEqual([2]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([2, 1]);
  });

  it('close drops every timer and ignores later ones', () => {
    const fired: number[] = [];
    const timers = new FlowTimers((key) => fired.push(key.userId));
    timers.set({ chatId: 1, userId: 1 }, Date.now() + 1_000);
    timers.close();
    timers.set({ chatId: 1, userId: 2 }, Date.now() + 1_000);
    vi.advanceTimersByTime(5_000);
    expect(fired).toEqual([]);
  });
});
