// The retry transformer over the real client and the sandbox with its fault injection: what is retried
// (5xx, 429 after exactly retry_after, network), what is final (400/403, 401), per-method policies, the
// start-up budget, and shutdown ending a wait. Waits are recorded (and not slept) unless a test needs them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TransformedBotApi, composeCall } from '../../src/api/bot-api.js';
import { BotApiClient } from '../../src/api/client.js';
import { ApiError, ApiTimeoutError, NetworkError, RequestAbortedError } from '../../src/api/errors.js';
import {
  DEFAULT_RETRY_POLICY,
  STARTUP_RETRY_POLICY,
  retriesExhausted,
  retryTransformer,
  sendsSomethingNew,
  type RetryTransformerOptions,
} from '../../src/api/retry.js';
import type { ApiCallFn, Transformer } from '../../src/api/types.js';
import { createLogger } from '../../src/log/logger.js';
import { capturingLogger } from '../support/log-capture.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const USER = { id: 3001, first_name: 'Cy' };
const logger = createLogger({ level: 'silent' });

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe('retry transformer against the sandbox', () => {
  let sandbox: StartedSandbox;
  let bot: { token: string; username: string; id: number };
  let wire: BotApiClient;

  const fault = async (body: object) => {
    const response = await fetch(`${sandbox.baseUrl}/client/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bot: bot.username, ...body }),
    });
    expect(response.status).toBe(200);
  };
  /** Requests the sandbox received per method for the bot. */
  const requests = async (): Promise<Record<string, number>> => {
    const response = await fetch(`${sandbox.baseUrl}/client/stats?bot=${bot.username}`);
    return ((await response.json()) as { result: { requests: Record<string, number> } }).result.requests;
  };
  /** The client with only the retry transformer; every wait is recorded and skipped. */
  const retried = (options: Partial<RetryTransformerOptions> = {}) => {
    const waits: number[] = [];
    const api = new TransformedBotApi(wire, [retryTransformer({ logger, random: () => 0.5, sleep: async (ms) => void waits.push(ms), ...options })]);
    return { api, waits };
  };

  beforeAll(async () => {
    sandbox = await startSandbox();
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Retry test', username: 'retry_test_bot' });
    wire = new BotApiClient({ baseUrl: sandbox.baseUrl, token: bot.token, timeoutMs: 5000 });
    await sendAsUser(sandbox.baseUrl, USER, bot.username, 'hello');
  });
  afterAll(async () => {
    await wire.close();
    await sandbox.close();
  });
  afterEach(async () => {
    await fetch(`${sandbox.baseUrl}/client/faults`, { method: 'DELETE' });
  });

  it('getMe retries a 502 with backoff and answers the bot', async () => {
    const { api, waits } = retried({ methods: { getme: STARTUP_RETRY_POLICY } });
    const before = (await requests()).getme ?? 0;
    await fault({ method: 'getme', count: 1, status: 502 });
    expect((await api.getMe()).id).toBe(bot.id);
    expect((await requests()).getme).toBe(before + 2);
    // random() = 0.5: three quarters of the first ceiling (500 ms).
    expect(waits).toEqual([375]);
  });

  it('setWebhook retries a 502 and the webhook is set', async () => {
    const { api, waits } = retried({ methods: { setwebhook: STARTUP_RETRY_POLICY } });
    await fault({ method: 'setwebhook', count: 2, status: 502 });
    await api.setWebhook({ url: 'https://bot.example/hook' });
    expect((await wire.getWebhookInfo()).url).toBe('https://bot.example/hook');
    expect(waits).toEqual([375, 750]);
    await wire.deleteWebhook();
  });

  it('sendMessage waits exactly retry_after on 429 (at least one second), then sends', async () => {
    const { api, waits } = retried();
    await fault({ method: 'sendmessage', count: 1, status: 429, retry_after: 3 });
    await fault({ method: 'sendmessage', count: 1, status: 429, retry_after: 0 });
    expect((await api.sendMessage({ chat_id: USER.id, text: 'after the limit' })).text).toBe('after the limit');
    expect(waits).toEqual([3000, 1000]);
  });

  it('a 429 asking to wait longer than the method allows ends the call with that 429, marked as exhausted', async () => {
    const { api, waits } = retried({ methods: { sendmessage: { maxRetryAfterSeconds: 10 } } });
    await fault({ method: 'sendmessage', count: 1, status: 429, retry_after: 60 });
    const error = await failureOf(api.sendMessage({ chat_id: USER.id, text: 'x' }));
    expect(error).toMatchObject({ errorCode: 429, parameters: { retryAfter: 60 } });
    expect(retriesExhausted(error)).toEqual({ attempts: 1, limit: 'retry_after' });
    expect(waits).toEqual([]);
  });

  it('400 and 403 are final: one request, no wait', async () => {
    const { api, waits } = retried();
    const before = (await requests()).sendmessage ?? 0;
    expect(await failureOf(api.sendMessage({ chat_id: 424242, text: 'x' }))).toMatchObject({ errorCode: 400, description: 'Bad Request: chat not found' });
    await sendAsUser(sandbox.baseUrl, { id: 3002 }, 'BotMaker', '/help');
    expect(await failureOf(api.sendMessage({ chat_id: 3002, text: 'x' }))).toMatchObject({ errorCode: 403 });
    expect((await requests()).sendmessage).toBe(before + 2);
    expect(waits).toEqual([]);
  });

  it('401 is final: a refused token is asked once and the error says 401', async () => {
    const { api, waits } = retried({ methods: { getme: STARTUP_RETRY_POLICY } });
    const before = (await requests()).getme ?? 0;
    await fault({ method: 'getme', count: 3, status: 401, description: 'Unauthorized' });
    const error = await failureOf(api.getMe());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ errorCode: 401 });
    expect((await requests()).getme).toBe(before + 1);
    expect(waits).toEqual([]);
  });

  it('gives up after the attempts of the policy and marks the error', async () => {
    const { api, waits } = retried({ methods: { getme: { maxAttempts: 3 } } });
    await fault({ method: 'getme', count: 5, status: 500 });
    const error = await failureOf(api.getMe());
    expect(error).toMatchObject({ errorCode: 500 });
    expect(retriesExhausted(error)).toEqual({ attempts: 3, limit: 'attempts' });
    expect(waits).toEqual([375, 750]);
  });

  it('a call may ask for no retry at all', async () => {
    const { api, waits } = retried();
    await fault({ method: 'getme', count: 1, status: 502 });
    expect(await failureOf(api.getMe({ retry: { maxAttempts: 1 } }))).toMatchObject({ errorCode: 502 });
    expect(waits).toEqual([]);
  });

  it('an abort during the wait ends the call at once as an abort', async () => {
    const controller = new AbortController();
    const api = new TransformedBotApi(wire, [
      retryTransformer({
        logger,
        methods: { sendmessage: { budgetMs: Infinity } },
        sleep: (ms, signal) => {
          queueMicrotask(() => controller.abort());
          return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
        },
      }),
    ]);
    await fault({ method: 'sendmessage', count: 1, status: 429, retry_after: 60 });
    expect(await failureOf(api.sendMessage({ chat_id: USER.id, text: 'x' }, { signal: controller.signal }))).toBeInstanceOf(RequestAbortedError);
  });
});

describe('retry transformer: the start-up budget', () => {
  it('a wrong BASE_URL (nothing listening) fails within the start-up attempts with the network error', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const wire = new BotApiClient({ baseUrl: `http://127.0.0.1:${port}`, token: '1:x' });
    const waits: number[] = [];
    const api = new TransformedBotApi(wire, [retryTransformer({ logger, methods: { getme: STARTUP_RETRY_POLICY }, sleep: async (ms) => void waits.push(ms) })]);
    try {
      const error = await failureOf(api.getMe());
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).toBe('getme failed: network error ECONNREFUSED');
      expect(waits).toHaveLength(STARTUP_RETRY_POLICY.maxAttempts - 1);
    } finally {
      await wire.close();
    }
  });

  it('no attempt starts after the budget: the wait that would pass it ends the call', async () => {
    let now = 0;
    const waits: number[] = [];
    const failing: ApiCallFn = async (method) => {
      throw new ApiError(method, 502, 'Bad Gateway');
    };
    const retry = retryTransformer({
      logger,
      defaults: { ...DEFAULT_RETRY_POLICY, maxAttempts: Infinity, budgetMs: 2000, backoff: { baseMs: 1000, maxMs: 1000 } },
      random: () => 1,
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    const error = await failureOf(composeCall(failing, [retry])('getme', undefined));
    expect(retriesExhausted(error)).toEqual({ attempts: 3, limit: 'budget' });
    expect(waits).toEqual([1000, 1000]);
  });
});

describe('retry transformer: a layer below that throws instead of rejecting', () => {
  it('is retried like a rejection, and its final error rejects the call (never a synchronous throw)', async () => {
    let calls = 0;
    const throwing: ApiCallFn = (method) => {
      calls += 1;
      if (calls < 3) throw new NetworkError(method, 'ECONNRESET');
      return Promise.resolve(true as never);
    };
    const retry = retryTransformer({ logger, random: () => 0.5, sleep: async () => undefined });
    await expect(composeCall(throwing, [retry])('deletewebhook', undefined)).resolves.toBe(true);
    expect(calls).toBe(3);

    const refusing: ApiCallFn = (method) => {
      throw new ApiError(method, 400, 'Bad Request: no');
    };
    let returned: Promise<unknown> | undefined;
    expect(() => (returned = composeCall(refusing, [retry])('deletewebhook', undefined))).not.toThrow();
    expect(((await failureOf(returned!)) as ApiError).errorCode).toBe(400);
  });
});

describe('retry transformer: a timeout of a call that sends something', () => {
  /** The warning a call of `method` logs when its first attempt times out and the second succeeds. */
  async function retryWarning(method: 'sendmessage' | 'sendchataction' | 'getme'): Promise<Record<string, unknown>> {
    const { logger: capturing, lines } = capturingLogger();
    let calls = 0;
    const timingOut: ApiCallFn = (name) => (++calls === 1 ? Promise.reject(new ApiTimeoutError(name, 10_000)) : Promise.resolve(true as never));
    const retry = retryTransformer({ logger: capturing, random: () => 0.5, sleep: async () => undefined });
    await composeCall(timingOut, [retry])(method, { chat_id: 1, text: 'hi', action: 'typing' } as never);
    expect(calls).toBe(2);
    const warnings = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    return warnings[0]!;
  }

  it('says the message may be sent twice when it is sent again after no answer came', async () => {
    expect(await retryWarning('sendmessage')).toMatchObject({
      msg: 'sendmessage got no answer in time and is sent again; if the service did it, the chat gets it twice',
      may_repeat: true,
      reason: 'sendmessage failed: no answer within 10000 ms',
    });
  });

  it('retries what repeats harmlessly with the plain warning', async () => {
    for (const method of ['sendchataction', 'getme'] as const) {
      const warning = await retryWarning(method);
      expect(warning.msg).toBe(`${method} failed; retrying`);
      expect(warning).not.toHaveProperty('may_repeat');
    }
  });

  it('sorts the methods whose repeat shows', () => {
    for (const method of ['sendmessage', 'sendphoto', 'sendmediagroup', 'forwardmessage', 'copymessage']) expect(sendsSomethingNew(method)).toBe(true);
    for (const method of ['sendchataction', 'getme', 'editmessagetext', 'deletemessage', 'answercallbackquery', 'banchatmember'])
      expect(sendsSomethingNew(method)).toBe(false);
  });
});

describe('composeCall', () => {
  it('runs the first transformer outermost and passes method, params and options through', async () => {
    const seen: string[] = [];
    const tag =
      (name: string): Transformer =>
      async (prev, method, params, options) => {
        seen.push(`${name}>${method}`);
        const result = await prev(method, params, options);
        seen.push(`<${name}`);
        return result;
      };
    const wire: ApiCallFn = async (method, params, options) => {
      seen.push(`wire ${method} ${JSON.stringify(params)} ${options?.timeoutMs}`);
      return true as never;
    };
    await composeCall(wire, [tag('outer'), tag('inner')])('deletewebhook', { drop_pending_updates: true }, { timeoutMs: 7 });
    expect(seen).toEqual(['outer>deletewebhook', 'inner>deletewebhook', 'wire deletewebhook {"drop_pending_updates":true} 7', '<inner', '<outer']);
  });
});
