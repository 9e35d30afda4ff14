// Polling past one chat's backlog: when one chat's updates fill whole batches and wait (its sending limit, its
// retries), polling stores them (the inbox) and fetches past them, so other chats are handled meanwhile; a restart
// handles the stored ones first, each once; and the updates in hand never pass the pipeline's room
// (delivery.max_pending), even under a burst of 100,000. A scripted service that keeps its queue as the real
// one does (an offset confirms everything below it, at most `limit` per answer) and the real pipeline and file ledger.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GetUpdatesParams, Update } from '../../src/api/types.js';
import { PollingIngress } from '../../src/ingress/polling.js';
import { FakeBotApi } from '../delivery/fake-bot-api.js';
import { testPipeline, type TestPipeline } from '../support/test-pipeline.js';
import { gate, longPollUntilAborted, pollingOver, textUpdate, until } from '../support/polling-doubles.js';

const message = textUpdate;

/** The service's queue for one bot: updates 1..`total`, made when first answered (`chatOf` says whose each is). */
class QueuedService extends FakeBotApi {
  readonly calls: GetUpdatesParams[] = [];
  /** Everything below it was confirmed. */
  confirmed = 1;
  constructor(
    private readonly total: number,
    private readonly chatOf: (id: number) => number,
  ) {
    super();
  }
  override async getUpdates(params: GetUpdatesParams, options?: { signal?: AbortSignal }): Promise<Update[]> {
    this.calls.push(params);
    if (params.offset !== undefined) this.confirmed = Math.max(this.confirmed, params.offset);
    const limit = params.limit ?? 100;
    const answer: Update[] = [];
    for (let id = this.confirmed; id <= this.total && answer.length < limit; id++) answer.push(message(id, this.chatOf(id)));
    if (answer.length > 0 || params.timeout === 0) return answer;
    // Nothing left: a long poll, until the stop aborts it.
    return longPollUntilAborted(options?.signal);
  }
}

const polling = (api: QueuedService, pipeline: TestPipeline['pipeline']) => pollingOver(api, pipeline);

/** A pipeline whose chat 1 waits at `stuck` before each of its replies; records who was handled, in order. */
function stuckChatPipeline(options: { maxPending?: number; dir?: string; stuck: Promise<void> }) {
  const handled: number[] = [];
  const test = testPipeline({
    maxPending: options.maxPending ?? 1000,
    concurrency: 8,
    ...(options.dir ? { dir: options.dir } : {}),
    perform: async (update) => {
      if (update.message?.chat.id === 1) await options.stuck;
      handled.push(update.update_id);
    },
  });
  return { ...test, handled };
}

const BACKLOG = 250;
/** Updates 1..250 are chat 1's; 251, 252, 253 are chats 2, 3, 4's. */
const chatOf = (id: number) => (id <= BACKLOG ? 1 : id - BACKLOG + 1);

/**
 * Waits until the offset has passed chat 1's backlog as far as it must: what the service still holds past it fits in
 * one answer (fewer than `limit`, 100), so nothing newer waits behind the backlog. How far that is depends on timing:
 * a batch is stored once its first updates have waited 500 ms, and one handed out over more than one look at what is
 * stuck is stored in two parts, which moves the later answers' bounds (the offset ends at 201, or between 155 and 200).
 */
async function fetchedPastBacklog(api: QueuedService): Promise<void> {
  await until(() => BACKLOG + 3 - api.confirmed + 1 < 100);
}

/**
 * A busy machine: the pipeline takes 60 ms (of CPU, holding the thread) to take update `lateFrom`, so the batch
 * before it has waited longer than the rest when polling looks for stuck updates.
 */
function handOutLate(pipeline: TestPipeline['pipeline'], lateFrom: number): void {
  const handle = pipeline.handle.bind(pipeline);
  pipeline.handle = (update) => {
    if (update.update_id === lateFrom) for (const start = performance.now(); performance.now() - start < 60;);
    return handle(update);
  };
}

async function stop(ingress: PollingIngress, test: TestPipeline, deadlineMs: number): Promise<void> {
  ingress.stopAccepting();
  await test.pipeline.drain(deadlineMs, 100);
  await ingress.close();
  test.pipeline.close();
  await test.ledger.close();
}

describe('polling past one chat backlog', () => {
  it.each([
    ['', undefined],
    [' (a busy machine hands the first batch out over more than one look at what is stuck)', 54],
  ])('stores the backlog and fetches past it: the other chats are answered while it waits, and it is answered in order after%s', async (_, lateFrom) => {
    const api = new QueuedService(BACKLOG + 3, chatOf);
    const stuck = gate();
    const test = stuckChatPipeline({ stuck: stuck.opened });
    if (lateFrom !== undefined) handOutLate(test.pipeline, lateFrom);
    const ingress = polling(api, test.pipeline);
    await ingress.start();
    await until(() => [251, 252, 253].every((id) => test.handled.includes(id)));
    // Nothing of chat 1 was answered yet: the others did not wait for it.
    expect(test.handled).toEqual([251, 252, 253]);
    await fetchedPastBacklog(api);
    // The offset passed only stored updates: every update of chat 1 below it is in the inbox.
    const inbox = readFileSync(join(test.dir, 'webhook.inbox'), 'utf8');
    const stored = inbox.split('\n').filter((line) => line.startsWith('a ')).length;
    expect(stored).toBeGreaterThanOrEqual(Math.min(api.confirmed - 1, BACKLOG));
    expect(stored).toBeLessThanOrEqual(BACKLOG);

    stuck.open();
    await until(() => test.handled.length === BACKLOG + 3);
    expect(test.handled.slice(3)).toEqual(Array.from({ length: BACKLOG }, (_, i) => i + 1));
    expect(new Set(test.committed).size).toBe(test.committed.length);
    await stop(ingress, test, 1000);
    // Handled: nothing left in the inbox once it is rewritten at the stop.
    expect(readFileSync(join(test.dir, 'webhook.inbox'), 'utf8')).toBe('');
  });

  it('a restart handles the stored updates first, in order and each once, before what the service sends again', async () => {
    const api = new QueuedService(BACKLOG + 3, chatOf);
    const stuck = gate();
    const first = stuckChatPipeline({ stuck: stuck.opened });
    const firstIngress = polling(api, first.pipeline);
    await firstIngress.start();
    await until(() => [251, 252, 253].every((id) => first.handled.includes(id)));
    await fetchedPastBacklog(api);
    // Stopped while chat 1 is still stuck: its updates are abandoned, and kept in the inbox.
    await stop(firstIngress, first, 50);

    // Those the offset passed from the inbox first, then the rest from the service again (251–253 were handled:
    // the journal skips them).
    const second = stuckChatPipeline({ stuck: Promise.resolve(), dir: first.dir });
    expect(await second.pipeline.replayPending()).toBeGreaterThanOrEqual(Math.min(api.confirmed - 1, BACKLOG));
    const secondIngress = polling(api, second.pipeline);
    await secondIngress.start();
    await until(() => second.handled.length === BACKLOG);
    expect(second.handled).toEqual(Array.from({ length: BACKLOG }, (_, i) => i + 1));
    await stop(secondIngress, second, 1000);
  });

  it('holds no more updates than the pipeline has room for, and asks the service for no more', async () => {
    const api = new QueuedService(BACKLOG + 3, chatOf);
    const stuck = gate();
    const test = stuckChatPipeline({ maxPending: 30, stuck: stuck.opened });
    let most = 0;
    const getUpdates = api.getUpdates.bind(api);
    api.getUpdates = (params, options) => {
      most = Math.max(most, test.pipeline.inFlight + (params.limit ?? 100));
      return getUpdates(params, options);
    };
    const ingress = polling(api, test.pipeline);
    await ingress.start();
    await until(() => test.pipeline.inFlight === 30);
    const callsWhenFull = api.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Full: no fetching (and no spinning) until some finish.
    expect(api.calls.length).toBe(callsWhenFull);
    expect(most).toBeLessThanOrEqual(30);
    stuck.open();
    await until(() => test.handled.length === BACKLOG + 3);
    expect(most).toBeLessThanOrEqual(30);
    await stop(ingress, test, 1000);
  });

  it('a burst of 100,000 from one chat: never more than delivery.max_pending in hand', async () => {
    const api = new QueuedService(100_000, () => 1);
    const stuck = gate();
    const test = stuckChatPipeline({ maxPending: 1000, stuck: stuck.opened });
    const ingress = polling(api, test.pipeline);
    await ingress.start();
    await until(() => test.pipeline.inFlight === 1000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(test.pipeline.inFlight).toBe(1000);
    // What was fetched is what is in hand: the service keeps the other 99,000.
    expect(api.confirmed).toBeLessThanOrEqual(1001);
    expect(Math.max(...api.calls.map((call) => call.offset ?? 0))).toBeLessThanOrEqual(1001);
    await stop(ingress, test, 50);
  });
});
