// The callers' AbortSignals, each watched with one 'abort' listener for all the calls in flight that share it (the
// pipeline passes one signal to every task), instead of a listener per call. The calls of a signal are an intrusive
// list whose links are cleared when a call leaves it. Measured (--trace-gc, 80,000 calls): a listener per call (Node
// keeps a removed listener's links) and a Set per signal both grew the old generation by ~10 MB of promoted garbage,
// kept until a full collection; this list grows it by nothing, and costs a few field writes per call.

/** A call that ends when its caller's signal aborts; the links belong to SignalWatch. */
export interface CallerAbortable<T> {
  abortedByCaller(): void;
  watchPrevious: T | undefined;
  watchNext: T | undefined;
}

/** One signal's calls in flight (newest first) and its listener. */
class Watched<T extends CallerAbortable<T>> {
  first: T | undefined;
  readonly onAbort: () => void;

  constructor(signal: AbortSignal, watched: Map<AbortSignal, Watched<T>>) {
    this.onAbort = () => {
      watched.delete(signal);
      const calls: T[] = [];
      for (let call = this.first; call;) {
        const next: T | undefined = call.watchNext;
        call.watchPrevious = call.watchNext = undefined;
        calls.push(call);
        call = next;
      }
      this.first = undefined;
      for (const call of calls) call.abortedByCaller();
    };
  }
}

/** Which calls in flight each caller's signal ends; a signal is listened to only while it has calls in flight. */
export class SignalWatch<T extends CallerAbortable<T>> {
  private readonly watched = new Map<AbortSignal, Watched<T>>();

  /** `call.abortedByCaller()` runs when `signal` aborts, unless `unwatch(signal, call)` came first. */
  watch(signal: AbortSignal, call: T): void {
    let entry = this.watched.get(signal);
    if (!entry) {
      entry = new Watched(signal, this.watched);
      this.watched.set(signal, entry);
      signal.addEventListener('abort', entry.onAbort, { once: true });
    }
    call.watchNext = entry.first;
    if (entry.first) entry.first.watchPrevious = call;
    entry.first = call;
  }

  /** The call ended: its signal no longer concerns it (nor, once no call uses it, this client). */
  unwatch(signal: AbortSignal, call: T): void {
    const entry = this.watched.get(signal);
    if (!entry) return;
    const { watchPrevious: previous, watchNext: next } = call;
    if (previous) previous.watchNext = next;
    else if (entry.first === call) entry.first = next;
    else return; // not in the list (its signal aborted and the list is gone)
    if (next) next.watchPrevious = previous;
    call.watchPrevious = undefined;
    call.watchNext = undefined;
    if (entry.first) return;
    this.watched.delete(signal);
    // A signal made by AbortSignal.any (a long poll's) stays reachable while it has a listener: remove it.
    signal.removeEventListener('abort', entry.onAbort);
  }

  /** Signals listened to now (for tests). */
  get signals(): number {
    return this.watched.size;
  }
}
