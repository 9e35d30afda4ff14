// The service's update handler performs what the engine decides: a rule's reply goes out through the
// sender, a button press is answered (so it never spins), member events and other updates stay ignored,
// and every update is remembered as handled whatever happened.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { Update } from '../../src/api/types.js';
import { MemoryHandledUpdates } from '../../src/delivery/handled-updates.js';
import { ReplySender } from '../../src/delivery/reply-sender.js';
import { compileRules } from '../../src/engine/compile.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { createUpdateHandler } from '../../src/service/handle-update.js';
import { FakeBotApi } from '../delivery/fake-bot-api.js';

const chat = { id: -100, type: 'group' as const, title: 'Shop' };
const ada = { id: 42, is_bot: false, first_name: 'Ada' };

function setup(level = 'debug') {
  const api = new FakeBotApi();
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger({ level, destination, pretty: false, secrets: new Secrets() });
  const metrics = new ServiceMetrics({ processMetrics: false });
  const handled = new MemoryHandledUpdates();
  const begun: number[] = [];
  const journal = Object.assign(handled, { begin: (id: number) => void begun.push(id) });
  const rules = { current: compileRules([{ id: 'hi', text: 'hi', reply: 'hello {{user.first_name}}' }]) };
  const sender = new ReplySender({ api, logger, metrics, maxAttempts: 1 });
  const handler = createUpdateHandler({ rules, botUsername: 'shop_bot', sender, api, handled: journal, logger, metrics });
  const run = (update: object) => handler(update as Update, new AbortController().signal);
  return { api, lines, metrics, handled, begun, run };
}

const press = (updateId: number) => ({
  update_id: updateId,
  callback_query: { id: `cq-${updateId}`, from: ada, chat_instance: 'ci', data: 'buy', message: { message_id: 5, date: 1, chat, text: 'menu' } },
});

describe('createUpdateHandler', () => {
  it("sends the matching rule's reply and logs the update as handled", async () => {
    const { api, lines, handled, begun, run } = setup();
    await run({ update_id: 1, message: { message_id: 3, date: 1, chat, from: ada, text: 'HI' } });
    expect(api.sent).toEqual([{ chat_id: -100, text: 'hello Ada' }]);
    expect(begun).toEqual([1]);
    expect(handled.has(1)).toBe(true);
    expect(lines.find((l) => l.msg === 'update handled')).toMatchObject({ update_id: 1, chat_id: -100, rule: 'hi', sent: 1, dropped: false });
  });

  it('logs one info line per update (chat, rule, latency) and what the user wrote only at debug level', async () => {
    const quiet = setup('info');
    await quiet.run({ update_id: 11, message: { message_id: 3, date: 1, chat, from: ada, text: 'HI' } });
    await quiet.run({ update_id: 13, message: { message_id: 4, date: 1, chat, from: ada, text: 'my card is 4111' } });
    expect(quiet.lines).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        update_id: 11,
        chat_id: -100,
        rule: 'hi',
        duration_ms: expect.any(Number),
        sent: 1,
        dropped: false,
        msg: 'update handled',
      },
      { level: 30, time: expect.any(Number), update_id: 13, chat_id: -100, rule: null, duration_ms: expect.any(Number), msg: 'update handled' },
    ]);
    expect(JSON.stringify(quiet.lines)).not.toContain('4111');

    const verbose = setup('debug');
    await verbose.run({ update_id: 12, message: { message_id: 3, date: 1, chat, from: ada, text: 'my card is 4111' } });
    expect(verbose.lines.find((l) => l.msg === 'update handled')).toMatchObject({ update_id: 12, rule: null, text: 'my card is 4111' });
  });

  it('answers a button press once, with no text and no message sent', async () => {
    const { api, lines, handled, begun, run } = setup();
    await run(press(2));
    expect(api.answered).toEqual([{ callback_query_id: 'cq-2' }]);
    expect(api.attempts).toEqual([]);
    expect(begun).toEqual([2]);
    expect(handled.has(2)).toBe(true);
    expect(lines.find((l) => l.msg === 'update handled')).toMatchObject({ update_id: 2, chat_id: -100, rule: null });
  });

  it('a press the service refuses to answer (too old) is logged and counted, and the update still counts as handled', async () => {
    const { api, lines, metrics, handled, run } = setup();
    api.answerFailures.push(new ApiError('answercallbackquery', 400, 'Bad Request: query is too old and response timeout expired or query ID is invalid'));
    await run(press(3));
    expect(handled.has(3)).toBe(true);
    expect(lines.find((l) => l.msg === 'answercallbackquery failed')).toMatchObject({ level: 40, callback_query_id: 'cq-3' });
    expect((await metrics.render()).body).toContain('hearsay_errors_total{kind="rejected"} 1');
  });

  it('ignores member events and updates it does not act on, remembering them as handled', async () => {
    const { api, lines, handled, begun, run } = setup();
    await run({ update_id: 4, message: { message_id: 6, date: 1, chat, from: ada, new_chat_members: [ada] } });
    await run({ update_id: 5, edited_message: { message_id: 3, date: 1, edit_date: 2, chat, from: ada, text: 'hi' } });
    expect(api.attempts).toEqual([]);
    expect(api.answered).toEqual([]);
    expect(begun).toEqual([]);
    expect([handled.has(4), handled.has(5)]).toEqual([true, true]);
    expect(lines.filter((l) => l.msg === 'update ignored: only text messages are answered').map((l) => l.kind)).toEqual([
      'message without text',
      'edited_message',
    ]);
  });

  it('skips an update handled before', async () => {
    const { api, handled, run } = setup();
    handled.add(6);
    await run(press(6));
    expect(api.answered).toEqual([]);
  });
});
