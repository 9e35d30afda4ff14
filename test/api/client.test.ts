import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { ApiError, ApiTimeoutError, HttpError, NetworkError, RequestAbortedError, isAbortError, redactUrl } from '../../src/api/errors.js';
import { createBotViaAssistant, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';

const USER = { id: 2001, first_name: 'Ann', username: 'ann' };

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

async function fault(baseUrl: string, body: object): Promise<void> {
  const response = await fetch(`${baseUrl}/client/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

describe('BotApiClient against the sandbox', () => {
  let sandbox: StartedSandbox;
  let bot: { token: string; username: string; id: number };
  let client: BotApiClient;

  beforeAll(async () => {
    sandbox = await startSandbox();
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Client test', username: 'client_test_bot' });
    client = new BotApiClient({ baseUrl: sandbox.baseUrl, token: bot.token, timeoutMs: 2000, longPollMarginMs: 2000 });
    await sendAsUser(sandbox.baseUrl, USER, bot.username, 'hello');
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });
  afterEach(async () => {
    await fetch(`${sandbox.baseUrl}/client/faults`, { method: 'DELETE' });
  });

  it('getMe returns the bot', async () => {
    expect(await client.getMe()).toMatchObject({ id: bot.id, is_bot: true, username: 'client_test_bot', first_name: 'Client test' });
  });

  it('sendMessage returns the sent message and the user sees it in the chat', async () => {
    const sent = await client.sendMessage({ chat_id: USER.id, text: 'hi Ann 👋' });
    expect(sent).toMatchObject({ chat: { id: USER.id, type: 'private', first_name: 'Ann' }, text: 'hi Ann 👋', from: { id: bot.id, is_bot: true } });
    expect(typeof sent.date).toBe('number');
    const [seen] = await waitForBotReplies(sandbox.baseUrl, { userId: USER.id, bot: bot.username, after: sent.message_id - 1 });
    expect(seen?.text).toBe('hi Ann 👋');
  });

  it('sendMessage accepts a chat id as a string and replies to a message', async () => {
    const original = await sendAsUser(sandbox.baseUrl, USER, bot.username, 'question');
    const sent = await client.sendMessage({ chat_id: String(USER.id), text: 'answer', reply_parameters: { message_id: original.message_id } });
    expect(sent.reply_to_message?.message_id).toBe(original.message_id);
  });

  it('getUpdates returns the user message as an update with a command entity', async () => {
    await sendAsUser(sandbox.baseUrl, USER, bot.username, '/start@client_test_bot now');
    const updates = await client.getUpdates({ timeout: 0 });
    const last = updates.at(-1);
    expect(last?.message).toMatchObject({
      text: '/start@client_test_bot now',
      from: { id: USER.id, is_bot: false, first_name: 'Ann', username: 'ann' },
      chat: { id: USER.id, type: 'private' },
      entities: [{ type: 'bot_command', offset: 0, length: '/start@client_test_bot'.length }],
    });
    await client.getUpdates({ offset: last!.update_id + 1 });
  });

  it('setWebhook, getWebhookInfo, deleteWebhook round trip', async () => {
    expect(await client.setWebhook({ url: 'http://127.0.0.1:9/hook', max_connections: 3, allowed_updates: ['message'] })).toBe(true);
    expect(await client.getWebhookInfo()).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      has_custom_certificate: false,
      max_connections: 3,
      allowed_updates: ['message'],
    });
    expect(await client.deleteWebhook()).toBe(true);
    expect((await client.getWebhookInfo()).url).toBe('');
  });

  it('a wrong token is ApiError 401 Unauthorized, with no token in message or stack', async () => {
    const wrong = new BotApiClient({ baseUrl: sandbox.baseUrl, token: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    try {
      const error = await failureOf(wrong.getMe());
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ method: 'getme', errorCode: 401, description: 'Unauthorized', message: 'getme failed: 401 Unauthorized' });
      expect(String((error as Error).stack)).not.toContain('AAAAAAAAAAAAAAAAAAAAAAAA');
    } finally {
      await wrong.close();
    }
  });

  it('an unknown method is ApiError 404 Not Found', async () => {
    const error = await failureOf(client.call('frobnicate' as never, {} as never));
    expect(error).toMatchObject({ errorCode: 404, description: 'Not Found' });
  });

  it.each([
    [{ text: 'x' }, 'Bad Request: chat_id is empty'],
    [{ chat_id: USER.id, text: '' }, 'Bad Request: message text is empty'],
    [{ chat_id: USER.id, text: 'x'.repeat(4097) }, 'Bad Request: message is too long'],
    [{ chat_id: 424242, text: 'x' }, 'Bad Request: chat not found'],
    [{ chat_id: '@nochannel', text: 'x' }, 'Bad Request: chat not found'],
  ])('sendMessage %j fails with 400 %s', async (params, description) => {
    const error = await failureOf(client.sendMessage(params as never));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ errorCode: 400, description });
  });

  it('4096 characters are accepted even when they are emoji (two UTF-16 units each)', async () => {
    const sent = await client.sendMessage({ chat_id: USER.id, text: '😀'.repeat(4096) });
    expect(sent.text.length).toBe(8192);
  });

  it('a user who blocked the bot gives 403, and unblocking restores sending', async () => {
    const block = (blocked: boolean) =>
      fetch(`${sandbox.baseUrl}/client/block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: USER.id, bot: bot.username, blocked }),
      });
    await block(true);
    const error = await failureOf(client.sendMessage({ chat_id: USER.id, text: 'still there?' }));
    expect(error).toMatchObject({ errorCode: 403, description: 'Forbidden: bot was blocked by the user' });
    await block(false);
    expect((await client.sendMessage({ chat_id: USER.id, text: 'welcome back' })).text).toBe('welcome back');
  });

  it('a bot cannot start a conversation with a user who never wrote to it', async () => {
    await sendAsUser(sandbox.baseUrl, { id: 2002, first_name: 'Bo' }, 'BotMaker', '/help');
    const error = await failureOf(client.sendMessage({ chat_id: 2002, text: 'hi' }));
    expect(error).toMatchObject({ errorCode: 403, description: "Forbidden: bot can't initiate conversation with a user" });
  });

  it('429 carries retryAfter from the answer', async () => {
    await fault(sandbox.baseUrl, { bot: bot.username, method: 'sendmessage', count: 1, status: 429, retry_after: 3 });
    const error = await failureOf(client.sendMessage({ chat_id: USER.id, text: 'x' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ errorCode: 429, description: 'Too Many Requests: retry after 3', parameters: { retryAfter: 3 } });
    expect((error as Error).message).toBe('sendmessage failed: 429 Too Many Requests: retry after 3');
  });

  it('an injected 500 is ApiError 500', async () => {
    await fault(sandbox.baseUrl, { bot: bot.username, method: 'getme', count: 1, status: 500 });
    expect(await failureOf(client.getMe())).toMatchObject({ errorCode: 500, description: 'Internal Server Error' });
    expect((await client.getMe()).id).toBe(bot.id);
  });

  it('an answer slower than the timeout is ApiTimeoutError', async () => {
    await fault(sandbox.baseUrl, { bot: bot.username, method: 'getme', count: 1, delay_ms: 1500 });
    const error = await failureOf(client.getMe({ timeoutMs: 300 }));
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toMatchObject({ method: 'getme', timeoutMs: 300 });
  });

  it('a reset connection is NetworkError with a code and a token-free cause', async () => {
    await fault(sandbox.baseUrl, { bot: bot.username, method: 'getupdates', count: 1, reset: true });
    const error = await failureOf(client.getUpdates({}));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
    const printed = `${(error as Error).stack} ${String((error as Error).cause)} ${((error as Error).cause as Error)?.stack}`;
    expect(printed).not.toContain(bot.token);
    expect(printed).not.toContain(bot.token.split(':')[1]);
  });

  it('a closed port is NetworkError ECONNREFUSED', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const closed = new BotApiClient({ baseUrl: `http://127.0.0.1:${port}`, token: bot.token });
    try {
      const error = await failureOf(closed.getMe());
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ code: 'ECONNREFUSED', message: 'getme failed: network error ECONNREFUSED' });
      expect(String((error as Error).stack)).not.toContain(bot.token);
    } finally {
      await closed.close();
    }
  });

  it('aborting through the signal is RequestAbortedError, recognised by isAbortError', async () => {
    const controller = new AbortController();
    const pending = client.getUpdates({ timeout: 10, offset: -1 }, { signal: controller.signal }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(isAbortError(error)).toBe(true);
    expect(isAbortError(new Error('other'))).toBe(false);
  });
});

describe('BotApiClient.close', () => {
  it('ends a long poll in flight at once instead of waiting for its timeout', async () => {
    const sandbox = await startSandbox();
    try {
      const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Closer', username: 'closer_bot' });
      const client = new BotApiClient({ baseUrl: sandbox.baseUrl, token: bot.token });
      const poll = client.getUpdates({ timeout: 40 }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await client.close();
      const error = await poll;
      expect(error).toBeInstanceOf(RequestAbortedError);
    } finally {
      await sandbox.close();
    }
  });
});

describe('BotApiClient against a server that does not speak the Bot API', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end(`<html>Bad gateway for ${request.url}</html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('a non-JSON answer is HttpError with the status', async () => {
    const client = new BotApiClient({ baseUrl, token: '42:secretsecretsecretsecretsecretsecret' });
    try {
      const error = await failureOf(client.sendMessage({ chat_id: 1, text: 'x' }));
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status: 502, method: 'sendmessage', message: 'sendmessage failed: HTTP 502 without a Bot API answer' });
      // The page echoes the request URL: the snippet keeps the page but not the token.
      expect((error as HttpError).bodySnippet).toContain('/prefix/bot<redacted>/sendmessage');
      expect(JSON.stringify(error)).not.toContain('secretsecret');
    } finally {
      await client.close();
    }
  });
});

describe('BotApiClient.answerCallbackQuery', () => {
  it('posts answercallbackquery with the query id and options as JSON, and returns the answer', async () => {
    const seen: Array<{ url: string | undefined; body: unknown }> = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ url: request.url, body: JSON.parse(body) });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok: true, result: true }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new BotApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: '42:abc' });
    try {
      expect(await client.answerCallbackQuery({ callback_query_id: 'cq-1', text: 'Added', show_alert: true })).toBe(true);
      expect(seen).toEqual([{ url: '/bot42:abc/answercallbackquery', body: { callback_query_id: 'cq-1', text: 'Added', show_alert: true } }]);
    } finally {
      await client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('redactUrl', () => {
  it('hides the token and keeps the method', () => {
    expect(redactUrl('https://api.example.org/bot123:ABC-def_ghi/sendMessage?chat_id=1')).toBe('/bot<redacted>/sendMessage');
    expect(redactUrl('/bot123:ABC/getme')).toBe('/bot<redacted>/getme');
  });
});
