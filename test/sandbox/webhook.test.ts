import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Update } from '@grammyjs/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { createBotViaAssistant, pressButton, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';

interface Received {
  update: Update;
  headers: IncomingHttpHeaders;
}

type Answer = (update: Update, attempt: number) => { status: number; body?: string; headers?: Record<string, string> };

/** A local webhook receiver whose answers the test decides. */
async function startReceiver(answer: Answer): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const attempts = new Map<number, number>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const update = JSON.parse(body) as Update;
      const attempt = (attempts.get(update.update_id) ?? 0) + 1;
      attempts.set(update.update_id, attempt);
      const reply = answer(update, attempt);
      if (reply.status >= 200 && reply.status < 300) received.push({ update, headers: request.headers });
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('webhook delivery in the sandbox', () => {
  let sandbox: StartedSandbox;
  let client: BotApiClient;
  let username: string;
  const closers: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    sandbox = await startSandbox({ webhook: { retryBaseMs: 20, retryMaxMs: 100, timeoutMs: 2000 } });
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Hooked', username: 'hooked_bot' });
    username = bot.username;
    client = new BotApiClient({ baseUrl: sandbox.baseUrl, token: bot.token });
  });
  afterEach(async () => {
    await client.close();
    await sandbox.close();
    for (const close of closers.splice(0)) await close();
  });

  const send = (text: string, user = 4001) => sendAsUser(sandbox.baseUrl, { id: user, first_name: 'Di' }, username, text);

  it('POSTs each update as JSON with the secret header', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    closers.push(receiver.close);
    await client.setWebhook({ url: receiver.url, secret_token: 'my_Secret-123' });
    await send('/start');
    await until(() => receiver.received.length === 1);
    const [first] = receiver.received;
    expect(first!.headers['x-telegram-bot-api-secret-token']).toBe('my_Secret-123');
    expect(first!.headers['content-type']).toContain('application/json');
    expect(first!.update.message).toMatchObject({ text: '/start', chat: { id: 4001 }, entities: [{ type: 'bot_command', offset: 0, length: 6 }] });
    await until(async () => (await client.getWebhookInfo()).pending_update_count === 0);
  });

  it('without a secret, no secret header is sent', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    closers.push(receiver.close);
    await client.setWebhook({ url: receiver.url });
    await send('hi');
    await until(() => receiver.received.length === 1);
    expect(receiver.received[0]!.headers['x-telegram-bot-api-secret-token']).toBeUndefined();
  });

  it('a failing receiver is retried and gets every update exactly once, in order per chat', async () => {
    // Every update fails twice (500, then a connection-level answer of 503) before it is accepted.
    const receiver = await startReceiver((_update, attempt) => (attempt <= 2 ? { status: attempt === 1 ? 500 : 503 } : { status: 200 }));
    closers.push(receiver.close);
    await client.setWebhook({ url: receiver.url, max_connections: 4 });
    const texts = ['1', '2', '3', '4', '5'];
    for (const text of texts) {
      await send(`a${text}`, 4001);
      await send(`b${text}`, 4002);
    }
    await until(() => receiver.received.length === 10);
    const textsOf = (chat: number) => receiver.received.filter((entry) => entry.update.message?.chat.id === chat).map((entry) => entry.update.message?.text);
    expect(textsOf(4001)).toEqual(texts.map((text) => `a${text}`));
    expect(textsOf(4002)).toEqual(texts.map((text) => `b${text}`));
    expect((await client.getWebhookInfo()).pending_update_count).toBe(0);
  });

  it('getwebhookinfo reports a failing receiver and the pending updates', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    closers.push(receiver.close);
    await client.setWebhook({ url: receiver.url });
    await send('lost?');
    await send('not lost');
    await until(async () => (await client.getWebhookInfo()).last_error_message !== undefined);
    const info = await client.getWebhookInfo();
    expect(info).toMatchObject({
      url: receiver.url,
      pending_update_count: 2,
      last_error_message: 'Wrong response from the webhook: 500 Internal Server Error',
    });
    expect(Math.abs(info.last_error_date! - Date.now() / 1000)).toBeLessThan(60);
  });

  it('a closed receiver is reported as a refused connection; deleting the webhook hands the updates to getupdates', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    await receiver.close();
    await client.setWebhook({ url: receiver.url });
    await send('kept');
    await until(async () => (await client.getWebhookInfo()).last_error_message === 'Connection refused');
    await client.deleteWebhook();
    expect((await client.getUpdates({})).map((update) => update.message?.text)).toEqual(['kept']);
  });

  it('drop_pending_updates on deletewebhook forgets the pending updates', async () => {
    await client.setWebhook({ url: 'http://127.0.0.1:9/closed' });
    await send('dropped');
    await client.deleteWebhook({ drop_pending_updates: true });
    expect(await client.getUpdates({})).toEqual([]);
  });

  it('a Retry-After header from the receiver is honoured before the next attempt', async () => {
    const times: number[] = [];
    const receiver = await startReceiver((_update, attempt) => {
      times.push(Date.now());
      return attempt === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 };
    });
    closers.push(receiver.close);
    await client.setWebhook({ url: receiver.url });
    await send('patience');
    await until(() => receiver.received.length === 1);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
  });

  it('a method call in the webhook answer is executed', async () => {
    const receiver = await startReceiver((update) => ({
      status: 200,
      body: JSON.stringify({ method: 'sendMessage', chat_id: update.message!.chat.id, text: `echo: ${update.message!.text}` }),
    }));
    closers.push(receiver.close);
    await client.setWebhook({ url: receiver.url });
    const sent = await send('ping');
    const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId: 4001, bot: username, after: sent.message_id });
    expect(reply?.text).toBe('echo: ping');
  });

  it('a webhook answer that would change the webhook, log out or only read is ignored, as the service ignores it', async () => {
    const answers = ['deleteWebhook', 'getMe', 'logOut', 'sendMessage'];
    const receiver = await startReceiver((update) => {
      const method = answers.shift()!;
      return { status: 200, body: JSON.stringify({ method, chat_id: update.message!.chat.id, text: `ran ${method}` }) };
    });
    closers.push(receiver.close);
    const ran: string[] = [];
    sandbox.sandbox.onBotApiCall((event) => ran.push(event.method));
    await client.setWebhook({ url: receiver.url });
    for (const text of ['one', 'two', 'three']) await send(text);
    const last = await send('four');
    const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId: 4001, bot: username, after: last.message_id });
    expect(reply?.text).toBe('ran sendMessage');
    expect(ran.filter((method) => method !== 'getwebhookinfo' && method !== 'setwebhook')).toEqual(['sendmessage']);
    expect((await client.getWebhookInfo()).url).toBe(receiver.url);
  });

  it('a press reaches the webhook as a callback_query, and an answerCallbackQuery in the answer answers it', async () => {
    const receiver = await startReceiver((update) =>
      update.callback_query
        ? { status: 200, body: JSON.stringify({ method: 'answerCallbackQuery', callback_query_id: update.callback_query.id, text: 'Noted' }) }
        : { status: 200 },
    );
    closers.push(receiver.close);
    await send('/start');
    const keyboard = { inline_keyboard: [[{ text: 'Yes', callback_data: 'yes' }]] };
    const question = await client.sendMessage({ chat_id: 4001, text: 'Sure?', reply_markup: keyboard } as Parameters<typeof client.sendMessage>[0]);
    await client.setWebhook({ url: receiver.url });
    const pressed = await pressButton(sandbox.baseUrl, 4001, { messageId: question.message_id, data: 'yes', wait: 5 });
    expect(pressed.answer).toMatchObject({ status: 'answered', text: 'Noted' });
    expect(receiver.received.map((entry) => entry.update.callback_query?.data ?? entry.update.message?.text)).toEqual(['/start', 'yes']);
  });

  it.each([
    [{ url: 'http://example.com/hook' }, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook'],
    [{ url: 'https://example.com:8080/hook' }, 'Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443'],
    [{ url: 'https://example.com/hook', secret_token: 'has space' }, 'Bad Request: secret token contains unallowed characters'],
    [{ url: 'https://example.com/hook', secret_token: 'a'.repeat(257) }, 'Bad Request: secret token is too long'],
  ])('setwebhook %j is refused with %s', async (params, description) => {
    expect(await client.setWebhook(params).catch((error: unknown) => error)).toMatchObject({ errorCode: 400, description });
  });
});
