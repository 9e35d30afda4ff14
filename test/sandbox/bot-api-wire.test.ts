import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';
import { lineCapture } from '../support/log-capture.js';

describe('the Bot API endpoint on the wire', () => {
  let sandbox: StartedSandbox;
  let token: string;
  let username: string;
  // Everything the sandbox and client log at the most verbose level.
  const { destination, lines: logLines } = lineCapture();

  beforeAll(async () => {
    const logger = createLogger({ level: 'trace', destination, pretty: false, secrets: new Secrets() });
    sandbox = await startSandbox({ logger });
    ({ token, username } = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Wire', username: 'wire_bot' }));
    await sendAsUser(sandbox.baseUrl, { id: 5001, first_name: 'Ed' }, username, 'hello');
    const client = new BotApiClient({ baseUrl: sandbox.baseUrl, token, logger });
    await client.getMe();
    await client.sendMessage({ chat_id: 5001, text: 'secret-free reply' });
    await client.sendMessage({ chat_id: 1, text: 'x' }).catch(() => undefined);
    await client.close();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const call = (path: string, init?: RequestInit) => fetch(`${sandbox.baseUrl}${path}`, init);

  it('accepts GET with a query string and any letter case in the method name', async () => {
    const response = await call(`/bot${token}/GetMe`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, result: { username } });
  });

  it('accepts a form-encoded body with JSON-encoded nested values', async () => {
    const original = await sendAsUser(sandbox.baseUrl, { id: 5001, first_name: 'Ed' }, username, 'form?');
    const body = new URLSearchParams({ chat_id: '5001', text: 'from a form', reply_parameters: JSON.stringify({ message_id: original.message_id }) });
    const response = await call(`/bot${token}/sendMessage`, { method: 'POST', body });
    const envelope = (await response.json()) as { ok: boolean; result: { text: string; reply_to_message?: { message_id: number } } };
    expect(envelope.ok).toBe(true);
    expect(envelope.result.text).toBe('from a form');
    expect(envelope.result.reply_to_message?.message_id).toBe(original.message_id);
  });

  it('accepts a POST without a body for a call without parameters', async () => {
    const response = await call(`/bot${token}/getwebhookinfo`, { method: 'POST' });
    expect(await response.json()).toMatchObject({ ok: true, result: { url: '', has_custom_certificate: false } });
  });

  it('answers errors with the HTTP status equal to error_code and no parameters when there are none', async () => {
    const response = await call(`/bot${token}/sendmessage?text=hi`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error_code: 400, description: 'Bad Request: chat_id is empty' });
  });

  it('answers a malformed, missing or unknown token with 401, an unknown method with 404', async () => {
    for (const path of ['/botnot-a-token/getme', `/bot${token.split(':')[0]}:${'A'.repeat(35)}/getme`]) {
      const response = await call(path);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ ok: false, error_code: 401, description: 'Unauthorized' });
    }
    const missing = await call('/bot/getme');
    expect([401, 404]).toContain(missing.status);
    const unknown = await call(`/bot${token}/sendPigeon`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ ok: false, error_code: 404, description: 'Not Found' });
  });

  it('a 429 carries the Retry-After header and parameters.retry_after', async () => {
    await call('/client/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bot: username, method: 'getme', count: 2, status: 429, retry_after: 7 }),
    });
    for (let i = 0; i < 2; i++) {
      const response = await call(`/bot${token}/getme`);
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('7');
      expect(await response.json()).toEqual({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } });
    }
    expect((await call(`/bot${token}/getme`)).status).toBe(200);
  });

  it('counts requests per method so tests can spot a busy loop', async () => {
    const before = (await (await call(`/client/stats?bot=${username}`)).json()) as { result: { requests: Record<string, number> } };
    await call(`/bot${token}/getUpdates`);
    await call(`/bot${token}/getupdates`);
    const after = (await (await call(`/client/stats?bot=${username}`)).json()) as { result: { requests: Record<string, number> } };
    expect(after.result.requests.getupdates).toBe((before.result.requests.getupdates ?? 0) + 2);
  });

  it('refuses bad client requests with a clear 400', async () => {
    const toNobody = await call('/client/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: { id: 1, first_name: 'A' }, to: 'ghost_bot', text: 'hi' }),
    });
    expect(toNobody.status).toBe(400);
    expect(((await toNobody.json()) as { description: string }).description).toContain('no bot with the username @ghost_bot');
    const badFault = await call('/client/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bot: username, method: 'getme' }),
    });
    expect(badFault.status).toBe(400);
    const badJson = await call('/client/send', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"user":' });
    expect(badJson.status).toBe(400);
  });

  it('never writes the token to a log line', () => {
    expect(logLines.length).toBeGreaterThan(0);
    const all = logLines.join('');
    expect(all).toContain('sendmessage');
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.split(':')[1]);
  });
});

describe('optional rate limits', () => {
  it('answer 429 with retry_after beyond one message per second to a chat', async () => {
    const sandbox = await startSandbox({ rateLimits: true });
    try {
      const { token, username } = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Fast', username: 'fast_bot' });
      await sendAsUser(sandbox.baseUrl, 6001, username, 'hi');
      const client = new BotApiClient({ baseUrl: sandbox.baseUrl, token });
      await client.sendMessage({ chat_id: 6001, text: 'one' });
      const error = await client.sendMessage({ chat_id: 6001, text: 'two' }).catch((failure: unknown) => failure);
      expect(error).toMatchObject({ errorCode: 429, parameters: { retryAfter: 1 } });
      await client.close();
    } finally {
      await sandbox.close();
    }
  });
});
