// The polling leader's record of the confirmed offset, paced: the first at once, then at most one per interval,
// always the latest offset, and at once on a stop; a replica that stops leading records nothing it left for later.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OffsetRecordPacer } from '../../src/ingress/offset-record-pacer.js';

describe('the paced record of the confirmed offset', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const pacer = (failures: Array<[unknown, number]> = [], fail = false) => {
    const recorded: number[] = [];
    const record = (offset: number) => {
      recorded.push(offset);
      return fail ? Promise.reject(new Error('fenced')) : Promise.resolve();
    };
    return { recorded, pacer: new OffsetRecordPacer(record, 1000, (error, offset) => failures.push([error, offset])) };
  };

  it('records the first offset at once and the latest of the next second once, a second later', async () => {
    const { recorded, pacer: offsets } = pacer();
    await offsets.confirm(10);
    for (let offset = 11; offset <= 60; offset++) {
      vi.advanceTimersByTime(10);
      await offsets.confirm(offset);
    }
    expect(recorded).toEqual([10]);
    await vi.advanceTimersByTimeAsync(500);
    expect(recorded).toEqual([10, 60]);
    // An interval after that record, the next is recorded at once again.
    vi.advanceTimersByTime(1000);
    await offsets.confirm(61);
    expect(recorded).toEqual([10, 60, 61]);
  });

  it('records at once when asked (a stop), and what it left for later is then recorded with it', async () => {
    const { recorded, pacer: offsets } = pacer();
    await offsets.confirm(5);
    await offsets.confirm(6);
    await offsets.confirm(7, { now: true });
    await vi.advanceTimersByTimeAsync(5000);
    expect(recorded).toEqual([5, 7]);
  });

  it('a cancelled pacer (the lease lost) records nothing it left for later', async () => {
    const { recorded, pacer: offsets } = pacer();
    await offsets.confirm(5);
    await offsets.confirm(6);
    offsets.cancel();
    await vi.advanceTimersByTimeAsync(5000);
    expect(recorded).toEqual([5]);
  });

  it('a record made later that fails is reported with its offset', async () => {
    const failures: Array<[unknown, number]> = [];
    const { pacer: offsets } = pacer(failures, true);
    await expect(offsets.confirm(5)).rejects.toThrow('fenced');
    await offsets.confirm(8);
    await vi.advanceTimersByTimeAsync(1000);
    expect(failures.map(([error, offset]) => [(error as Error).message, offset])).toEqual([['fenced', 8]]);
  });
});
