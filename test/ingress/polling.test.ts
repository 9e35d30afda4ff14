import { describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import type { GetUpdatesParams, Update } from '../../src/api/types.js';
import { HearsayError } from '../../src/errors/hearsay-error.js';
import { createBotViaAssistant, sendAsUser } from '../support/sandbox-harness.js';
import { FakeBotApi } from '../delivery/fake-bot-api.js';
import { testPipeline } from '../support/test-pipeline.js';
import { gate, longPollUntilAborted, pollingOver, textUpdate, until } from '../support/polling-doubles.js';
import { sandboxAndRuns } from '../e2e/sandbox-and-runs.js';

const update = textUpdate;

/**
 * getupdates adds the scripted batches one per call and, like the service, answers every update not yet
 * confirmed by the offset; with nothing to answer it long-polls (until aborted).
 */
class ScriptedUpdatesApi extends FakeBotApi {
  readonly calls: GetUpdatesParams[] = [];
  private unconfirmed: Update[] = [];
  constructor(private readonly batches: Update[][]) {
    super();
  }
  override async getUpdates(params: GetUpdatesParams, options?: { signal?: AbortSignal }): Promise<Update[]> {
    this.calls.push(params);
    const offset = params.offset;
    if (offset !== undefined) this.unconfirmed = this.unconfirmed.filter((u) => u.update_id >= offset);
    this.unconfirmed.push(...(this.batches.shift() ?? []));
    if (this.unconfirmed.length > 0) return [...this.unconfirmed];
    if (params.timeout === 0) return [];
    return longPollUntilAborted(options?.signal);
  }
}

describe('PollingIngress offsets', () => {
  it('never confirms past an update still being handled, and confirms everything once it is done', async () => {
    const api = new ScriptedUpdatesApi([[update(10, 1), update(11, 2)], [update(12, 1)]]);
    const slow = gate();
    const handled: number[] = [];
    const { pipeline } = testPipeline({
      inbox: false,
      perform: async (u) => {
        if (u.update_id === 10) await slow.opened;
        handled.push(u.update_id);
      },
    });
    const ingress = pollingOver(api, pipeline);
    await ingress.start();
    await until(() => handled.includes(11) && api.calls.length >= 3);
    // 11 is done but 10 is not: fetching goes on, but no call confirms 10 (offset above 10).
    expect(api.calls[0]!.offset).toBeUndefined();
    expect(api.calls.slice(1).every((call) => call.offset === 10)).toBe(true);
    // 12 belongs to chat 1, behind 10: it waits for it.
    expect(handled).toEqual([11]);
    slow.open();
    await until(() => api.calls.some((call) => call.offset === 13));
    expect(handled).toEqual([11, 10, 12]);
    ingress.stopAccepting();
    await pipeline.drain(1000, 1000);
    await ingress.close();
    expect(api.calls.at(-1)).toEqual({ offset: 13, limit: 1, timeout: 0 });
  });

  it('makes the handled updates durable before a getupdates confirms them', async () => {
    const api = new ScriptedUpdatesApi([[update(40, 1), update(41, 2)]]);
    const { pipeline, ledger } = testPipeline({ inbox: false });
    const fetch = api.getUpdates.bind(api);
    const syncsWhenConfirming: number[] = [];
    api.getUpdates = (params, options) => {
      if (params.offset === 42) syncsWhenConfirming.push(ledger.diskCalls.journal.syncs);
      return fetch(params, options);
    };
    const ingress = pollingOver(api, pipeline);
    await ingress.start();
    await until(() => syncsWhenConfirming.length > 0);
    // Their commits only wrote the done lines (no state changes); one flush covered both before the offset moved.
    expect(syncsWhenConfirming[0]).toBe(1);
    ingress.stopAccepting();
    await pipeline.drain(1000, 1000);
    await ingress.close();
  });

  it('keeps fetching while one chat is stuck, so other chats are answered meanwhile', async () => {
    const api = new ScriptedUpdatesApi([[update(30, 1)], [update(31, 2)], [update(32, 3)]]);
    const stuck = gate();
    const handled: number[] = [];
    const { pipeline } = testPipeline({
      inbox: false,
      perform: async (u) => {
        if (u.update_id === 30) await stuck.opened;
        handled.push(u.update_id);
      },
    });
    const ingress = pollingOver(api, pipeline);
    await ingress.start();
    await until(() => handled.length === 2);
    expect(handled).toEqual([31, 32]);
    // The service resends 30 while it is unconfirmed; it must still be handled only once.
    stuck.open();
    await until(() => handled.length === 3);
    ingress.stopAccepting();
    await pipeline.drain(1000, 1000);
    await ingress.close();
    expect(handled).toEqual([31, 32, 30]);
    expect(api.calls.at(-1)).toEqual({ offset: 33, limit: 1, timeout: 0 });
  });

  it('on a stop cut short by the deadline, confirms only up to the lowest unhandled update', async () => {
    const api = new ScriptedUpdatesApi([[update(20, 1), update(21, 2), update(22, 3)]]);
    const { pipeline } = testPipeline({
      inbox: false,
      perform: async (u, signal) => {
        if (u.update_id === 21) await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    });
    const ingress = pollingOver(api, pipeline, { pipelineDelayMs: 250 });
    await ingress.start();
    await until(() => pipeline.inFlight === 1);
    ingress.stopAccepting();
    expect(await pipeline.drain(50, 1000)).toBe(false);
    await ingress.close();
    // 21 was not handled: the service must deliver it (and 22 again, which dedupe ignores) after a restart.
    expect(api.calls.at(-1)).toEqual({ offset: 21, limit: 1, timeout: 0 });
    await ingress.close(); // idempotent
  });
});

describe('PollingIngress against the sandbox', () => {
  const { sandbox } = sandboxAndRuns();

  /** Counts getupdates calls, so a test can wait for the first poll instead of sleeping. */
  class CountingClient extends BotApiClient {
    polls = 0;
    override getUpdates(params: GetUpdatesParams, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<Update[]> {
      this.polls += 1;
      return super.getUpdates(params, options);
    }
  }

  const poller = (token: string, options: { deleteWebhook?: boolean; onUpdate?: (u: Update) => void; maxConflicts?: number } = {}) => {
    const api = new CountingClient({ baseUrl: sandbox.baseUrl, token });
    const { pipeline } = testPipeline({ inbox: false, concurrency: 2, perform: async (u) => options.onUpdate?.(u) });
    const ingress = pollingOver(api, pipeline, {
      pipelineDelayMs: 250,
      deleteWebhook: options.deleteWebhook ?? false,
      backoff: { baseMs: 20, maxMs: 100 },
      ...(options.maxConflicts !== undefined ? { maxConflicts: options.maxConflicts } : {}),
    });
    return { api, pipeline, ingress };
  };

  it('stops with a clear error when a webhook is set, and deletes it when told to', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 301, name: 'Hooked', username: 'hooked_poll_bot' });
    const setup = new BotApiClient({ baseUrl: sandbox.baseUrl, token: bot.token });
    await setup.setWebhook({ url: 'http://127.0.0.1:9/hook' });

    const refused = poller(bot.token);
    await refused.ingress.start();
    const error = await refused.ingress.done.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HearsayError);
    expect((error as HearsayError).code).toBe('HS_ERR_WEBHOOK_ACTIVE');
    expect((error as HearsayError).message).toMatch(/webhook is set.*polling\.delete_webhook/);
    await refused.ingress.close();
    await refused.api.close();

    const seen: string[] = [];
    const deleting = poller(bot.token, { deleteWebhook: true, onUpdate: (u) => void seen.push(u.message?.text ?? '') });
    await deleting.ingress.start();
    await sendAsUser(sandbox.baseUrl, 301, bot.username, 'after delete');
    await until(() => seen.length === 1);
    expect(seen).toEqual(['after delete']);
    expect((await setup.getWebhookInfo()).url).toBe('');
    deleting.ingress.stopAccepting();
    await deleting.pipeline.drain(1000, 1000);
    await deleting.ingress.close();
    await deleting.api.close();
    await setup.close();
  });

  it('fails fast on a rejected token, saying it was revoked or replaced', async () => {
    const { ingress, api } = poller('1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    await ingress.start();
    const error = await ingress.done.then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as HearsayError).code).toBe('HS_ERR_TOKEN_REVOKED');
    expect((error as Error).message).toMatch(
      /^the token was rejected \(401 Unauthorized\): it was revoked .* or is wrong; set the bot's current token in BOT_TOKEN \(or a file named by BOT_TOKEN_FILE\)/,
    );
    await api.close();
  });

  it('names a second instance polling with the same token as the cause of the conflict', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 302, name: 'Twins', username: 'twin_poll_bot' });
    const first = poller(bot.token, { maxConflicts: 1 });
    const second = poller(bot.token, { maxConflicts: 1 });
    await first.ingress.start();
    await until(() => first.api.polls > 0);
    await second.ingress.start();
    const error = await Promise.race([first.ingress.done, second.ingress.done]).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as HearsayError).code).toBe('HS_ERR_OTHER_INSTANCE');
    expect((error as Error).message).toMatch(/another instance is polling with the same token/);
    for (const p of [first, second]) {
      p.ingress.stopAccepting();
      await p.ingress.close();
      await p.api.close();
    }
  });
});
