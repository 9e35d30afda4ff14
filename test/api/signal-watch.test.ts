import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SignalWatch, type CallerAbortable } from '../../src/api/signal-watch.js';

class Call implements CallerAbortable<Call> {
  aborted = 0;
  watchPrevious: Call | undefined = undefined;
  watchNext: Call | undefined = undefined;
  constructor(readonly name: string) {}
  abortedByCaller(): void {
    this.aborted++;
  }
}

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

describe('SignalWatch', () => {
  it('listens to a signal once however many calls share it, and stops when none is left', () => {
    const watch = new SignalWatch<Call>();
    const controller = new AbortController();
    const calls = ['a', 'b', 'c'].map((name) => new Call(name));
    for (const call of calls) watch.watch(controller.signal, call);
    expect(abortListeners(controller.signal)).toBe(1);
    for (const call of calls) watch.unwatch(controller.signal, call);
    expect(abortListeners(controller.signal)).toBe(0);
    expect(watch.signals).toBe(0);
    controller.abort();
    expect(calls.map((call) => call.aborted)).toEqual([0, 0, 0]);
  });

  it('an abort ends every call still in flight on that signal, once, and no call that left or belongs to another signal', () => {
    const watch = new SignalWatch<Call>();
    const controller = new AbortController();
    const other = new AbortController();
    const calls = ['first', 'middle', 'last', 'kept', 'gone'].map((name) => new Call(name));
    for (const call of calls) watch.watch(controller.signal, call);
    const elsewhere = new Call('elsewhere');
    watch.watch(other.signal, elsewhere);
    // Leaving from the head, the middle and the tail of the list keeps the others in it.
    watch.unwatch(controller.signal, calls[4]!);
    watch.unwatch(controller.signal, calls[1]!);
    watch.unwatch(controller.signal, calls[0]!);
    controller.abort();
    expect(Object.fromEntries(calls.map((call) => [call.name, call.aborted]))).toEqual({ first: 0, middle: 0, last: 1, kept: 1, gone: 0 });
    expect(elsewhere.aborted).toBe(0);
    expect(abortListeners(other.signal)).toBe(1);
    // The ended calls leave after the abort, as the client's do: nothing breaks, nothing runs twice.
    watch.unwatch(controller.signal, calls[2]!);
    watch.unwatch(controller.signal, calls[3]!);
    expect(calls[2]!.aborted).toBe(1);
    expect(watch.signals).toBe(1);
  });

  it('a call that left keeps no link to the calls still in flight', () => {
    const watch = new SignalWatch<Call>();
    const controller = new AbortController();
    const [a, b, c] = ['a', 'b', 'c'].map((name) => new Call(name));
    for (const call of [a!, b!, c!]) watch.watch(controller.signal, call);
    watch.unwatch(controller.signal, b!);
    expect([b!.watchPrevious, b!.watchNext]).toEqual([undefined, undefined]);
    controller.abort();
    expect([a!.watchPrevious, a!.watchNext, c!.watchPrevious, c!.watchNext]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('a signal made by AbortSignal.any keeps no listener once its calls have ended', () => {
    const watch = new SignalWatch<Call>();
    const source = new AbortController();
    const composite = AbortSignal.any([source.signal]);
    const poll = new Call('poll');
    watch.watch(composite, poll);
    expect(abortListeners(composite)).toBe(1);
    watch.unwatch(composite, poll);
    expect(abortListeners(composite)).toBe(0);
  });
});
