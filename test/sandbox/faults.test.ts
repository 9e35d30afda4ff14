import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { ApiError, NetworkError } from '../../src/api/errors.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

describe('fault injection', () => {
  let sandbox: StartedSandbox;
  let client: BotApiClient;
  let username: string;

  const post = (path: string, body: object) =>
    fetch(`${sandbox.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const stats = async () =>
    ((await (await fetch(`${sandbox.baseUrl}/client/stats?bot=${username}`)).json()) as { result: { requests: Record<string, number> } }).result.requests;
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: unknown) => (error instanceof ApiError ? error.errorCode : error instanceof NetworkError ? 'network' : String(error)),
    );

  beforeAll(async () => {
    sandbox = await startSandbox();
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Faulty', username: 'faulty_bot' });
    username = bot.username;
    client = new BotApiClient({ baseUrl: sandbox.baseUrl, token: bot.token });
    await sendAsUser(sandbox.baseUrl, 8001, username, 'hi');
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  it('a burst fails exactly the next N calls of that method, then the service recovers by itself', async () => {
    expect((await post('/client/faults', { bot: username, method: 'sendmessage', count: 3, status: 500 })).status).toBe(200);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await outcome(client.sendMessage({ chat_id: 8001, text: `try ${i}` })));
    expect(results).toEqual([500, 500, 500, 'ok', 'ok']);
    expect(await outcome(client.getMe())).toBe('ok');
  });

  it('rules without a bot or method apply to every call; stats count faulted calls too', async () => {
    const before = await stats();
    await post('/client/faults', { count: 2, reset: true });
    expect(await outcome(client.getMe())).toBe('network');
    expect(await outcome(client.getWebhookInfo())).toBe('network');
    expect(await outcome(client.getMe())).toBe('ok');
    const after = await stats();
    expect(after.getme).toBe((before.getme ?? 0) + 2);
    expect(after.getwebhookinfo).toBe((before.getwebhookinfo ?? 0) + 1);
  });

  it('DELETE /client/faults clears pending rules', async () => {
    await post('/client/faults', { bot: username, method: 'getme', count: 100, status: 503, description: 'Service Unavailable' });
    expect(await client.getMe().catch((error: unknown) => error)).toMatchObject({ errorCode: 503, description: 'Service Unavailable' });
    await fetch(`${sandbox.baseUrl}/client/faults`, { method: 'DELETE' });
    expect(await outcome(client.getMe())).toBe('ok');
  });

  it('a delay followed by a status delays, then fails', async () => {
    await post('/client/faults', { bot: username, method: 'getme', delay_ms: 200, status: 429, retry_after: 2 });
    expect(await client.getMe().catch((error: unknown) => error)).toMatchObject({ errorCode: 429, parameters: { retryAfter: 2 } });
  });
});
