// The in-process per-chat sequencer: one chat key's tasks strictly in arrival order, different keys at the
// same time with at most `concurrency` keys running (a task waiting for a backend lends its slot meanwhile). A
// busy key gives its slot back after each task so it cannot starve the others. Draining waits for the work in flight up to a deadline, then aborts it.
import { setMaxListeners } from 'node:events';
import { SequenceAbortedError, type ChatSequencer, type SequencedTask } from './ports.js';
import { TransientMap } from './transient-map.js';

interface Task {
  run: SequencedTask<unknown>;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export interface LocalChatSequencerOptions {
  /** Most keys running at once. */
  concurrency: number;
}

/** Waits a task may have going on the shared abort signal at the same time. */
const LISTENERS_PER_TASK = 8;

export class LocalChatSequencer implements ChatSequencer {
  /** Each key's tasks, the running one first; a key goes once its queue is empty. */
  private readonly queues = new TransientMap<string, Task[]>();
  private readonly ready: string[] = [];
  private readonly running = new Set<string>();
  private readonly controller = new AbortController();
  private pending = 0;
  /** Running tasks waiting outside (see waitAside): their slots are lent to other keys meanwhile. */
  private aside = 0;
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly options: LocalChatSequencerOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new RangeError('concurrency must be a positive integer');
    // Every running task listens to this one signal while it waits (a request, a backoff, the rate limiter)
    // and stops listening after: many listeners at once are expected, a leak is not, so the warning
    // threshold follows the concurrency instead of Node's default of 10.
    setMaxListeners(LISTENERS_PER_TASK * options.concurrency, this.controller.signal);
  }

  get inFlight(): number {
    return this.pending;
  }

  /** Keys running right now (never more than the concurrency). */
  get activeKeys(): number {
    return this.running.size;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  runsAtOnce(key: string): boolean {
    return !this.queues.has(key) && this.ready.length === 0 && this.running.size - this.aside < this.options.concurrency;
  }

  run<T>(key: string, task: SequencedTask<T>): Promise<T> {
    if (this.aborted || this.closed) return Promise.reject(new SequenceAbortedError(key));
    return new Promise<T>((resolve, reject) => {
      const entry: Task = { run: task, resolve: resolve as (value: unknown) => void, reject };
      let queue = this.queues.get(key);
      // A new queue made with its task in it, not empty and pushed to: that would reserve room for 17 (nearly every
      // queue only ever holds the one task: the service sends a chat's next update once this one is answered).
      if (!queue) this.queues.set(key, (queue = [entry]));
      else queue.push(entry);
      this.pending += 1;
      if (queue.length === 1 && !this.running.has(key)) this.ready.push(key);
      this.pump();
    });
  }

  async drain(deadlineMs: number, graceMs = 1000): Promise<boolean> {
    if (this.pending === 0) return true;
    const idle = new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      idle.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, deadlineMs)))),
    ]);
    clearTimeout(timer);
    if (!timedOut) return true;
    this.abort();
    // A task that ignores its signal must not hold the stop past its deadline.
    await Promise.race([idle, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    return false;
  }

  close(): void {
    this.closed = true;
  }

  async waitAside<T>(work: Promise<T>): Promise<T> {
    this.aside += 1;
    this.pump();
    try {
      return await work;
    } finally {
      // The task runs on at once when its wait ends: the keys started meanwhile finish in their own time.
      this.aside -= 1;
    }
  }

  abort(): void {
    if (this.aborted) return;
    this.controller.abort();
    for (const [key, queue] of this.queues.entries()) {
      // The running head of each queue settles through its task; the rest never started.
      const waiting = this.running.has(key) ? queue.splice(1) : queue.splice(0);
      for (const task of waiting) this.settle(task, undefined, new SequenceAbortedError(key));
      if (queue.length === 0) this.queues.delete(key);
    }
    this.ready.length = 0;
  }

  private pump(): void {
    while (this.running.size - this.aside < this.options.concurrency && this.ready.length > 0) {
      const key = this.ready.shift()!;
      this.running.add(key);
      this.runNext(key);
    }
  }

  /** Starts the head of the key's queue; its end settles it and lets the key's next task (or another key) run. */
  private runNext(key: string): void {
    const queue = this.queues.get(key)!;
    const task = queue[0]!;
    let work: Promise<unknown>;
    try {
      work = task.run(this.controller.signal);
    } catch (error) {
      work = Promise.reject(error as Error);
    }
    // then() rather than an async frame around the task: this runs for every update.
    work.then(
      (value) => this.finish(key, queue, task, value),
      (error: unknown) => this.finish(key, queue, task, undefined, this.aborted ? new SequenceAbortedError(key) : (error as Error)),
    );
  }

  private finish(key: string, queue: Task[], task: Task, value: unknown, error?: Error): void {
    this.settle(task, value, error);
    queue.shift();
    this.running.delete(key);
    if (queue.length > 0 && !this.aborted) this.ready.push(key);
    else if (queue.length === 0) this.queues.delete(key);
    this.pump();
  }

  private settle(task: Task, value: unknown, error?: Error): void {
    if (error) task.reject(error);
    else task.resolve(value);
    this.pending -= 1;
    if (this.pending === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const wake of waiters) wake();
    }
  }
}
