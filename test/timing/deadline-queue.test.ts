import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineQueue, type Expiring } from '../../src/timing/deadline-queue.js';

/** A call as the queue sees it: records when it expired. */
class Call implements Expiring {
  finished = false;
  expiredAt: number[] = [];
  constructor(private readonly clock: () => number) {}
  expire(): void {
    this.expiredAt.push(this.clock());
  }
}

describe('DeadlineQueue', () => {
  let clock = 0;
  const now = (): number => clock;
  /** Moves the queue's clock and the timers together. */
  const advance = (ms: number): void => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('expires a call that has not finished at its deadline, not before, and once', () => {
    const queue = new DeadlineQueue<Call>(100, now);
    const call = new Call(now);
    queue.add(call);
    advance(99);
    expect(call.expiredAt).toEqual([]);
    advance(1);
    expect(call.expiredAt).toEqual([100]);
    advance(1000);
    expect(call.expiredAt).toEqual([100]);
    expect(queue.size).toBe(0);
  });

  it('among many calls expires only those whose deadline passed, each at its own deadline, with one timer', () => {
    const queue = new DeadlineQueue<Call>(100, now);
    const calls = [new Call(now), new Call(now), new Call(now)];
    queue.add(calls[0]!);
    advance(30);
    queue.add(calls[1]!);
    advance(30);
    queue.add(calls[2]!);
    expect(vi.getTimerCount()).toBe(1);
    advance(40);
    expect(calls.map((call) => call.expiredAt)).toEqual([[100], [], []]);
    expect(vi.getTimerCount()).toBe(1);
    advance(30);
    expect(calls.map((call) => call.expiredAt)).toEqual([[100], [130], []]);
    advance(30);
    expect(calls.map((call) => call.expiredAt)).toEqual([[100], [130], [160]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never expires a call that finished, even when its deadline passes later or the timer was armed for it', () => {
    const queue = new DeadlineQueue<Call>(100, now);
    const first = new Call(now);
    const second = new Call(now);
    queue.add(first);
    advance(50);
    queue.add(second);
    first.finished = true;
    advance(60);
    expect(first.expiredAt).toEqual([]);
    expect(second.expiredAt).toEqual([]);
    second.finished = true;
    advance(1000);
    expect(second.expiredAt).toEqual([]);
    expect(queue.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('drops finished calls at the head as new ones come, so it holds only about the calls in flight', () => {
    const queue = new DeadlineQueue<Call>(10_000, now);
    for (let i = 0; i < 5000; i++) {
      const call = new Call(now);
      queue.add(call);
      call.finished = true;
      advance(1);
    }
    expect(queue.size).toBe(1);
  });

  it('keeps a call that is still in flight at the head, and the ones behind it, until their deadlines', () => {
    const queue = new DeadlineQueue<Call>(10_000, now);
    const slow = new Call(now);
    queue.add(slow);
    const later: Call[] = [];
    for (let i = 0; i < 3000; i++) {
      const call = new Call(now);
      queue.add(call);
      later.push(call);
      if (i !== 2000) call.finished = true;
      advance(1);
    }
    advance(10_000 - 3000);
    expect(slow.expiredAt).toEqual([10_000]);
    expect(later[2000]!.expiredAt).toEqual([]);
    advance(2001);
    expect(later[2000]!.expiredAt).toEqual([12_001]);
    expect(later.filter((call) => call.expiredAt.length > 0)).toHaveLength(1);
    expect(queue.size).toBe(0);
  });

  it('expires in deadline order when its slots have wrapped around and then had to grow', () => {
    const queue = new DeadlineQueue<Call>(1000, now);
    // Finished calls move the head along, so the pending ones below wrap around the end of the slots...
    for (let i = 0; i < 50; i++) {
      const call = new Call(now);
      queue.add(call);
      call.finished = true;
    }
    const pending: Call[] = [];
    // ...and more pending calls than there are slots make it grow while wrapped.
    for (let i = 0; i < 150; i++) {
      const call = new Call(now);
      queue.add(call);
      pending.push(call);
      advance(1);
    }
    expect(queue.size).toBe(150);
    advance(1000 - 150);
    expect(pending.filter((call) => call.expiredAt.length > 0)).toHaveLength(1);
    for (let ms = 0; ms < 149; ms++) advance(1);
    expect(pending.map((call) => call.expiredAt[0])).toEqual(pending.map((_, i) => 1000 + i));
    expect(queue.size).toBe(0);
  });

  it('when the timer fires before the clock reaches the deadline, waits again instead of expiring early', () => {
    const queue = new DeadlineQueue<Call>(100, now);
    const call = new Call(now);
    queue.add(call);
    clock += 95;
    vi.advanceTimersByTime(100);
    expect(call.expiredAt).toEqual([]);
    expect(vi.getTimerCount()).toBe(1);
    advance(5);
    expect(call.expiredAt).toEqual([100]);
  });

  it('a call added from expire() gets its deadline, on one timer', () => {
    const queue = new DeadlineQueue<Call>(100, now);
    const next = new Call(now);
    const first = new Call(now);
    first.expire = () => {
      first.expiredAt.push(clock);
      queue.add(next);
    };
    queue.add(first);
    advance(100);
    expect(first.expiredAt).toEqual([100]);
    expect(vi.getTimerCount()).toBe(1);
    advance(100);
    expect(next.expiredAt).toEqual([200]);
  });
});

describe('DeadlineQueue timer', () => {
  it('does not hold the process open', () => {
    const before = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const queue = new DeadlineQueue<Expiring>(60_000);
    queue.add({ finished: false, expire: () => undefined });
    expect(queue.size).toBe(1);
    expect(process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length).toBe(before);
  });
});
