import { describe, expect, it } from 'vitest';
import { ApiError, ApiTimeoutError, NetworkError } from '../../src/api/errors.js';
import { TransformedBotApi } from '../../src/api/bot-api.js';
import { sleep } from '../../src/api/backoff.js';
import { DEFAULT_RETRY_POLICY, retryTransformer } from '../../src/api/retry.js';
import { DeliveryAbortedError, ReplySender } from '../../src/delivery/reply-sender.js';
import { createLogger } from '../../src/log/logger.js';
import { metricsWatcher, watchingTransformer } from '../../src/ops/api-transformers.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { FakeBotApi } from './fake-bot-api.js';

const logger = createLogger({ level: 'silent' });
const reply = (text: string, extra: object = {}) => ({ ruleId: 'r1', chatId: 42, text, ...extra });
const tooMany = (seconds: number) => new ApiError('sendmessage', 429, `Too Many Requests: retry after ${seconds}`, { retryAfter: seconds });

// The sender over the client as the service composes it: the retry transformer (waits recorded, not slept) and metrics.
function setup(maxAttempts = 5) {
  const api = new FakeBotApi();
  const waits: number[] = [];
  const metrics = new ServiceMetrics({ processMetrics: false });
  const retry = retryTransformer({
    logger,
    methods: { sendmessage: { maxAttempts, budgetMs: Infinity } },
    random: () => 0.5,
    defaults: { ...DEFAULT_RETRY_POLICY, backoff: { baseMs: 100, maxMs: 1000 } },
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  const sender = new ReplySender({ api: new TransformedBotApi(api, [retry, watchingTransformer([metricsWatcher(metrics)])]), logger, metrics });
  return { api, waits, metrics, sender };
}

const count = async (metrics: ServiceMetrics, name: string, label?: string) => {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name)!;
  return metric.values.filter((v) => label === undefined || v.labels.kind === label).reduce((a, v) => a + v.value, 0);
};

describe('ReplySender', () => {
  it('sends a reply with its options, answering the triggering message with the first part only', async () => {
    const { api, sender } = setup();
    const text = `${'a'.repeat(4000)}\n${'b'.repeat(100)}`;
    const outcome = await sender.send(reply(text, { parseMode: 'HTML', replyToMessageId: 7, disableNotification: true }));
    expect(outcome).toEqual({ sent: 2, dropped: false });
    expect(api.sent.map((p) => p.text)).toEqual(['a'.repeat(4000), 'b'.repeat(100)]);
    expect(api.sent[0]).toMatchObject({ chat_id: 42, parse_mode: 'HTML', disable_notification: true, reply_parameters: { message_id: 7 } });
    expect(api.sent[1]!.reply_parameters).toBeUndefined();
  });

  it('waits exactly retry_after on 429, then sends', async () => {
    const { api, waits, sender, metrics } = setup();
    api.sendFailures = [tooMany(3), tooMany(1)];
    expect(await sender.send(reply('hi'))).toEqual({ sent: 1, dropped: false });
    expect(waits).toEqual([3000, 1000]);
    expect(api.sent).toHaveLength(1);
    expect(await count(metrics, 'hearsay_errors_total', 'rate_limited')).toBe(2);
    expect(await count(metrics, 'hearsay_replies_sent_total')).toBe(1);
  });

  it('backs off exponentially (capped) on 5xx, network errors and timeouts', async () => {
    const { api, waits, sender } = setup(10);
    api.sendFailures = [
      new ApiError('sendmessage', 500, 'Internal Server Error'),
      new NetworkError('sendmessage', 'ECONNRESET'),
      new ApiTimeoutError('sendmessage', 10_000),
      new ApiError('sendmessage', 502, 'Bad Gateway'),
      new ApiError('sendmessage', 503, 'Service Unavailable'),
    ];
    expect(await sender.send(reply('hi'))).toEqual({ sent: 1, dropped: false });
    // random() = 0.5 → three quarters of the ceiling: 100, 200, 400, 800, then the 1000 cap.
    expect(waits).toEqual([75, 150, 300, 600, 750]);
  });

  it('does not let 429 waits grow the backoff of later server errors', async () => {
    const { api, waits, sender } = setup();
    api.sendFailures = [tooMany(2), new ApiError('sendmessage', 500, 'Internal Server Error'), new ApiError('sendmessage', 500, 'Internal Server Error')];
    expect(await sender.send(reply('hi'))).toEqual({ sent: 1, dropped: false });
    expect(waits).toEqual([2000, 75, 150]);
  });

  it('drops a reply refused with 400 or 403 at once, without retrying', async () => {
    const { api, waits, sender, metrics } = setup();
    api.sendFailures = [new ApiError('sendmessage', 403, 'Forbidden: bot was blocked by the user')];
    expect(await sender.send(reply('hi'))).toEqual({ sent: 0, dropped: true });
    api.sendFailures = [new ApiError('sendmessage', 400, 'Bad Request: chat not found')];
    expect(await sender.send(reply('hi'))).toEqual({ sent: 0, dropped: true });
    expect(api.attempts).toHaveLength(2);
    expect(waits).toEqual([]);
    expect(await count(metrics, 'hearsay_errors_total', 'reply_dropped')).toBe(2);
  });

  it('gives up after max_attempts and counts the dropped reply', async () => {
    const { api, sender, metrics } = setup(3);
    api.sendFailures = Array.from({ length: 5 }, () => new ApiError('sendmessage', 500, 'Internal Server Error'));
    expect(await sender.send(reply('hi'))).toEqual({ sent: 0, dropped: true });
    expect(api.attempts).toHaveLength(3);
    expect(await count(metrics, 'hearsay_errors_total', 'reply_dropped')).toBe(1);
  });

  it('stops waiting at once when shutdown aborts the retry timer', async () => {
    const api = new FakeBotApi();
    api.sendFailures = [tooMany(60)];
    const controller = new AbortController();
    const waits: number[] = [];
    // Shutdown comes while the 60 s retry timer runs: the timer is real, only its start is observed.
    const retry = retryTransformer({
      logger,
      methods: { sendmessage: { budgetMs: Infinity } },
      sleep: (ms, signal) => {
        waits.push(ms);
        queueMicrotask(() => controller.abort());
        return sleep(ms, signal);
      },
    });
    const sender = new ReplySender({ api: new TransformedBotApi(api, [retry]), logger });
    await expect(sender.send(reply('hi'), controller.signal)).rejects.toBeInstanceOf(DeliveryAbortedError);
    expect(waits).toEqual([60_000]);
    expect(api.sent).toHaveLength(0);
  });
});
