import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const CONFLICT_POLL = 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running';
const CONFLICT_WEBHOOK = "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";
const CONFLICT_SET_WEBHOOK = 'Conflict: terminated by setWebhook request';

describe('getupdates in the sandbox', () => {
  let sandbox: StartedSandbox;
  let client: BotApiClient;
  let username: string;
  let token: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Poller', username: 'poller_bot' });
    username = bot.username;
    token = bot.token;
    client = new BotApiClient({ baseUrl: sandbox.baseUrl, token: bot.token, longPollMarginMs: 2000 });
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });
  beforeEach(async () => {
    // Forget whatever earlier tests left pending.
    await client.getUpdates({ offset: -1 });
    const left = await client.getUpdates({});
    if (left.length > 0) await client.getUpdates({ offset: left.at(-1)!.update_id + 1 });
  });

  /** Resolves once the sandbox holds a long poll of this bot open (the order of two polls is what a test is about). */
  const pollWaiting = async (): Promise<void> => {
    const queue = sandbox.sandbox.store.botByToken(token)!.queue;
    const deadline = Date.now() + 5000;
    while (!queue.polling) {
      if (Date.now() > deadline) throw new Error('no long poll reached the sandbox within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  const send = (text: string, user = 3001) => sendAsUser(sandbox.baseUrl, { id: user, first_name: 'Cy' }, username, text);

  it('a long poll returns as soon as a message arrives, well before its timeout', async () => {
    const started = Date.now();
    const poll = client.getUpdates({ timeout: 30 });
    await pollWaiting();
    await send('wake up');
    const updates = await poll;
    expect(updates.map((update) => update.message?.text)).toEqual(['wake up']);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a long poll with nothing to deliver ends empty when its timeout ends', async () => {
    expect(await client.getUpdates({ timeout: 1 })).toEqual([]);
  });

  it('updates stay until confirmed by an offset above their id, and never come back after', async () => {
    await send('one');
    await send('two');
    await send('three');
    const first = await client.getUpdates({});
    expect(first.map((update) => update.message?.text)).toEqual(['one', 'two', 'three']);
    const ids = first.map((update) => update.update_id);
    expect(ids[1]).toBe(ids[0]! + 1);
    expect(await client.getUpdates({})).toEqual(first);
    const rest = await client.getUpdates({ offset: ids[1]! });
    expect(rest.map((update) => update.message?.text)).toEqual(['two', 'three']);
    expect(await client.getUpdates({ offset: ids[2]! + 1 })).toEqual([]);
    await send('four');
    const next = await client.getUpdates({ offset: ids[0]! });
    expect(next.map((update) => update.message?.text)).toEqual(['four']);
    expect(next[0]!.update_id).toBeGreaterThan(ids[2]!);
  });

  it('limit caps the batch; a negative offset keeps only the last updates', async () => {
    for (const text of ['a', 'b', 'c', 'd']) await send(text);
    expect((await client.getUpdates({ limit: 2 })).map((update) => update.message?.text)).toEqual(['a', 'b']);
    expect((await client.getUpdates({ offset: -2 })).map((update) => update.message?.text)).toEqual(['c', 'd']);
    expect((await client.getUpdates({})).map((update) => update.message?.text)).toEqual(['c', 'd']);
  });

  it('a second concurrent poll ends the first with 409 and the exact description', async () => {
    const first = client.getUpdates({ timeout: 20 }).catch((error: unknown) => error);
    await pollWaiting();
    const second = client.getUpdates({ timeout: 20 });
    const error = await first;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ errorCode: 409, description: CONFLICT_POLL });
    await send('for the second');
    expect((await second).map((update) => update.message?.text)).toEqual(['for the second']);
  });

  it('polling while a webhook is set is a 409 that says to delete the webhook, and setting one ends a waiting poll', async () => {
    const waiting = client.getUpdates({ timeout: 20 }).catch((error: unknown) => error);
    await pollWaiting();
    await client.setWebhook({ url: 'http://127.0.0.1:9/never' });
    try {
      expect(await waiting).toMatchObject({ errorCode: 409, description: CONFLICT_SET_WEBHOOK });
      expect(await client.getUpdates({}).catch((error: unknown) => error)).toMatchObject({ errorCode: 409, description: CONFLICT_WEBHOOK });
    } finally {
      await client.deleteWebhook();
    }
  });

  it("updates are numbered per bot and carry each user's private chat", async () => {
    await send('from 3001', 3001);
    await send('from 3002', 3002);
    const updates = await client.getUpdates({});
    expect(updates.map((update) => update.message?.chat.id)).toEqual([3001, 3002]);
    expect(updates.every((update) => update.message?.chat.type === 'private')).toBe(true);
  });

  it('a poll that answers at once leaves the waiting poll alone; only a poll that waits ends it', async () => {
    const waiting = client.getUpdates({ timeout: 20 });
    await pollWaiting();
    expect(await client.getUpdates({ timeout: 0 })).toEqual([]);
    await send('still for the waiting one');
    expect((await waiting).map((update) => update.message?.text)).toEqual(['still for the waiting one']);
  });

  it('a stale (lower) offset drops nothing, and an offset far beyond the newest update is ignored', async () => {
    await send('one');
    await send('two');
    const [first, second] = await client.getUpdates({});
    await client.getUpdates({ offset: second!.update_id });
    expect((await client.getUpdates({ offset: first!.update_id - 5 })).map((update) => update.message?.text)).toEqual(['two']);
    expect((await client.getUpdates({ offset: second!.update_id + 1000 })).map((update) => update.message?.text)).toEqual(['two']);
  });

  it('allowed_updates stays in force until another list is given; an empty list restores the default', async () => {
    await client.getUpdates({ allowed_updates: ['callback_query'] });
    await send('not wanted');
    expect(await client.getUpdates({})).toEqual([]);
    await client.getUpdates({ allowed_updates: [] });
    await send('wanted again');
    expect((await client.getUpdates({})).map((update) => update.message?.text)).toEqual(['wanted again']);
  });
});
