// The life of one update through the real pipeline: the file ledger in a fresh directory, the engine, the
// service's perform step and a scripted Bot API. A reply goes out after its intent is on disk, a press is
// answered, ignored updates are still committed, an update is handled once however often it arrives, state
// changes are committed with the update and read by the next one, a 401 stops everything, a bug drops only
// its own update, and what an earlier run stored is replayed at start.
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { Update } from '../../src/api/types.js';
import { ReplySender } from '../../src/delivery/reply-sender.js';
import { compileRules } from '../../src/engine/compile.js';
import { decide, type DecideContext } from '../../src/engine/decide.js';
import type { BotEvent } from '../../src/engine/events.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import type { ConversationState } from '../../src/engine/state.js';
import { FileLedger } from '../../src/store/file/file-ledger.js';
import { JOURNAL_FILE } from '../../src/store/file/update-journal.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { LocalChatSequencer } from '../../src/pipeline/chat-sequencer.js';
import type { UpdatePipelineOptions } from '../../src/pipeline/pipeline-options.js';
import { UpdatePipeline } from '../../src/pipeline/update-pipeline.js';
import { createActionPerformer } from '../../src/delivery/perform-actions.js';
import { FakeBotApi } from '../delivery/fake-bot-api.js';
import { serviceApi } from '../support/service-api.js';
import { recordCapture } from '../support/log-capture.js';

const chat = { id: -100, type: 'group' as const, title: 'Shop' };
const ada = { id: 42, is_bot: false, first_name: 'Ada' };
const message = (updateId: number, text: string, chatId = chat.id): Update =>
  ({ update_id: updateId, message: { message_id: updateId, date: 1, chat: { ...chat, id: chatId }, from: ada, text } }) as Update;
const press = (updateId: number): Update =>
  ({
    update_id: updateId,
    callback_query: { id: `cq-${updateId}`, from: ada, chat_instance: 'ci', data: 'buy', message: { message_id: 5, date: 1, chat, text: 'menu' } },
  }) as Update;

function setup(
  options: {
    level?: string;
    dir?: string;
    decide?: UpdatePipelineOptions['decide'];
    maxPending?: number;
    groupCommitMaxDelayMs?: number;
    rules?: RuleSet;
    onHandled?: UpdatePipelineOptions['onHandled'];
  } = {},
) {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'hearsay-pipeline-'));
  const api = new FakeBotApi();
  const { destination, lines } = recordCapture();
  const logger = createLogger({ level: options.level ?? 'debug', destination, pretty: false, secrets: new Secrets() });
  const metrics = new ServiceMetrics({ processMetrics: false });
  const ledger = FileLedger.open({
    dir,
    logger,
    inbox: true,
    ...(options.groupCommitMaxDelayMs ? { groupCommitMaxDelayMs: options.groupCommitMaxDelayMs } : {}),
  });
  const client = serviceApi(api, { logger, metrics });
  const sender = new ReplySender({ api: client, logger });
  let tokenRejected = 0;
  const pipeline = new UpdatePipeline({
    ledger,
    states: ledger,
    sequencer: new LocalChatSequencer({ concurrency: 4 }),
    rules: { current: options.rules ?? compileRules([{ id: 'hi', text: 'hi', reply: 'hello {{user.first_name}}' }]) },
    context: { botUsername: 'shop_bot' },
    perform: createActionPerformer({ sender, api: client, logger }),
    logger,
    metrics,
    maxPending: options.maxPending ?? 100,
    onTokenRejected: () => (tokenRejected += 1),
    ...(options.decide ? { decide: options.decide } : {}),
    ...(options.onHandled ? { onHandled: options.onHandled } : {}),
  });
  const journal = () => readFileSync(join(dir, JOURNAL_FILE), 'utf8');
  return { api, lines, metrics, ledger, pipeline, dir, journal, tokenRejected: () => tokenRejected };
}

describe('UpdatePipeline', () => {
  it("sends the matching rule's reply only after its intent is written, commits it and logs one line", async () => {
    const { api, lines, ledger, pipeline, journal } = setup();
    const journalAtSend: string[] = [];
    api.beforeSend = async () => void journalAtSend.push(journal());
    await pipeline.handle(message(1, 'HI'));
    expect(api.sent).toEqual([{ chat_id: -100, text: 'hello Ada' }]);
    expect(journalAtSend[0]).toMatch(/^s 1$/m);
    expect(await ledger.seen(message(1, 'HI'))).toBe(true);
    expect(lines.find((l) => l.msg === 'update handled')).toMatchObject({ update_id: 1, chat_id: -100, rule: 'hi', sent: 1, dropped: false });
  });

  it('logs one info line per update (chat, rule, latency) and what the user wrote only at debug level', async () => {
    const quiet = setup({ level: 'info' });
    await quiet.pipeline.handle(message(11, 'HI'));
    await quiet.pipeline.handle(message(13, 'my card is 4111'));
    expect(quiet.lines).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        update_id: 11,
        chat_id: -100,
        rule: 'hi',
        match: 'text',
        duration_ms: expect.any(Number),
        sent: 1,
        dropped: false,
        msg: 'update handled',
      },
      // Unmatched, but its text stays out of the log unless log.unmatched asks for it.
      {
        level: 30,
        time: expect.any(Number),
        update_id: 13,
        chat_id: -100,
        rule: null,
        match: 'none',
        unmatched: 'none',
        duration_ms: expect.any(Number),
        msg: 'update handled',
      },
    ]);
    expect(JSON.stringify(quiet.lines)).not.toContain('4111');
    const verbose = setup({ level: 'debug' });
    await verbose.pipeline.handle(message(12, 'my card is 4111'));
    expect(verbose.lines.find((l) => l.msg === 'update handled')).toMatchObject({ update_id: 12, rule: null, text: 'my card is 4111' });
  });

  it('the line says how the rule matched (the keyword found) and which variables it changed, names only; onHandled gets the same', async () => {
    const rules = compileRules([
      { id: 'refund', keywords: ['refund', 'money back'], set: { 'user.asked': 'refund {{user.first_name}}' }, reply: 'Write to us.' },
    ]);
    const told: Array<{ rule: string | null; match: string; keyword?: string; changed: unknown }> = [];
    const { lines, pipeline } = setup({ level: 'info', rules, onHandled: (_handled, explanation) => told.push(explanation) });
    await pipeline.handle(message(21, 'I want my MONEY BACK now'));
    expect(lines.find((l) => l.msg === 'update handled')).toMatchObject({ rule: 'refund', match: 'keyword', keyword: 'money back', changed: ['user.asked'] });
    expect(JSON.stringify(lines)).not.toContain('refund Ada');
    expect(told).toEqual([
      expect.objectContaining({ rule: 'refund', match: 'keyword', keyword: 'money back', changed: [{ name: 'user.asked', value: 'refund Ada' }], backend: [] }),
    ]);
  });

  it('answers a button press once, with no text and no message sent', async () => {
    const { api, lines, ledger, pipeline } = setup();
    await pipeline.handle(press(2));
    await pipeline.handle(press(2));
    expect(api.answered).toEqual([{ callback_query_id: 'cq-2' }]);
    expect(api.attempts).toEqual([]);
    expect(await ledger.seen(press(2))).toBe(true);
    expect(lines.find((l) => l.msg === 'update handled')).toMatchObject({ update_id: 2, chat_id: -100, rule: null });
  });

  it('a press the service refuses to answer (too old) is logged and counted, and the update still counts as handled', async () => {
    const { api, lines, metrics, ledger, pipeline } = setup();
    api.answerFailures.push(new ApiError('answercallbackquery', 400, 'Bad Request: query is too old and response timeout expired or query ID is invalid'));
    await pipeline.handle(press(3));
    expect(await ledger.seen(press(3))).toBe(true);
    expect(lines.find((l) => l.msg === 'answercallbackquery failed')).toMatchObject({ level: 40, callback_query_id: 'cq-3' });
    expect((await metrics.render()).body).toContain('hearsay_errors_total{kind="rejected"} 1');
  });

  it('decides member events (no event rule here: nothing to send) and ignores updates it does not act on, committing them without an intent', async () => {
    const { api, lines, ledger, pipeline, journal } = setup();
    const joined = { update_id: 4, message: { message_id: 6, date: 1, chat, from: ada, new_chat_members: [ada] } } as Update;
    const edited = { update_id: 5, edited_message: { message_id: 3, date: 1, edit_date: 2, chat, from: ada, text: 'hi' } } as Update;
    await pipeline.handle(joined);
    await pipeline.handle(edited);
    expect(api.attempts).toEqual([]);
    expect(api.answered).toEqual([]);
    expect(journal()).not.toMatch(/^s /m);
    expect([await ledger.seen(joined), await ledger.seen(edited)]).toEqual([true, true]);
    expect(lines.filter((l) => l.msg === 'update ignored: nothing the rules answer').map((l) => l.kind)).toEqual(['edited_message']);
    expect(lines.find((l) => l.msg === 'update handled')).toMatchObject({ update_id: 4, rule: null });
  });

  it('handles an update once, whether it arrives again while in flight or after it was committed', async () => {
    const { api, pipeline } = setup();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    api.beforeSend = () => held;
    const first = pipeline.handle(message(6, 'hi'));
    const again = pipeline.handle(message(6, 'hi'));
    expect(pipeline.inFlight).toBe(1);
    release();
    await Promise.all([first, again]);
    await pipeline.handle(message(6, 'hi'));
    expect(api.sent).toHaveLength(1);
  });

  it('commits updates whose replies come back one by one with one fdatasync (group commit), each still only once it is on disk', async () => {
    // Every update here changes state, so each commit waits for its line to be on disk.
    const counting: RuleSet = compileRules([{ id: 'hi', text: 'hi', reply: 'hello', set: { 'chat.seen': 'yes' } }]);
    const { api, ledger, pipeline } = setup({ groupCommitMaxDelayMs: 60_000, rules: counting });
    const releases: Array<() => void> = [];
    api.beforeSend = () => new Promise<void>((resolve) => releases.push(resolve));
    const before = ledger.diskCalls.journal.syncs;
    let committed = 0;
    const handled = [1, 2, 3, 4].map((i) => pipeline.handle(message(20 + i, 'hi', -200 - i)).then(() => (committed += 1)));
    while (releases.length < 4) await new Promise((resolve) => setImmediate(resolve));
    for (const release of releases) {
      expect(committed).toBe(0);
      release();
      // Each reply in its own turn of the event loop, as they come back from the service.
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(handled);
    expect(api.sent).toHaveLength(4);
    expect(ledger.diskCalls.journal.syncs - before).toBe(1);
  });

  it('commits the state changes with the update, and the next update of that user reads them in another chat', async () => {
    const seen: ConversationState[] = [];
    // A decide that counts the user's messages: the engine's own rules produce no set_state yet.
    const counting = (event: BotEvent, _rules: RuleSet, state: ConversationState, _context: DecideContext) => {
      seen.push(state);
      const count = Number(state.user.count ?? 0) + 1;
      return {
        ruleId: 'count',
        actions: [
          { type: 'set_state' as const, scope: 'user' as const, key: 'count', value: count },
          { type: 'set_state' as const, scope: 'chat' as const, key: 'last', value: event.kind === 'message' ? event.message.text : '' },
        ],
      };
    };
    const { api, ledger, pipeline, dir, journal } = setup({ decide: counting });
    await pipeline.handle(message(20, 'one'));
    await pipeline.handle(message(21, 'two', -200));
    expect(seen.map((s) => [s.user, s.chat])).toEqual([
      [{}, {}],
      [{ count: 1 }, {}],
    ]);
    expect(api.attempts).toEqual([]);
    // Nothing to send, so no intent; the done line itself carries the state.
    expect(journal()).toMatch(/^D 21 \S+ .*"count":2/m);
    await ledger.close();
    const reopened = FileLedger.open({ dir, logger: createLogger({ level: 'silent' }), inbox: false });
    expect(await reopened.load({ chatId: -100, userId: 42 })).toEqual({ user: { count: 2 }, chat: { last: 'one' }, flow: null });
    await reopened.close();
  });

  it('on a refused token stops: the update stays unhandled, the service is told once, nothing more is taken', async () => {
    const { api, ledger, pipeline, tokenRejected, lines } = setup();
    api.sendFailures.push(new ApiError('sendmessage', 401, 'Unauthorized'));
    await expect(pipeline.handle(message(30, 'hi'))).rejects.toMatchObject({ name: 'TokenRejectedError' });
    expect(await ledger.seen(message(30, 'hi'))).toBe(false);
    expect(tokenRejected()).toBe(1);
    await expect(pipeline.handle(message(31, 'hi'))).rejects.toMatchObject({ name: 'TokenRejectedError' });
    expect(lines.some((l) => l.level === 50 && String(l.msg).includes('token was refused'))).toBe(true);
  });

  it('a failure inside the walk drops only its own update (logged, counted, committed) and the chat goes on', async () => {
    const buggy: UpdatePipelineOptions['decide'] = (event, rules, state, context) => {
      if (event.kind === 'message' && event.updateId === 40) throw new TypeError('a bug');
      return decide(event, rules, state, context);
    };
    const { api, lines, metrics, ledger, pipeline } = setup({ decide: buggy });
    await pipeline.handle(message(40, 'hi'));
    await pipeline.handle(message(41, 'hi'));
    expect(api.sent).toHaveLength(1);
    expect(lines.find((l) => l.msg === 'update handler failed; update dropped')).toMatchObject({ level: 50, update_id: 40 });
    expect((await metrics.render()).body).toContain('hearsay_errors_total{kind="handler_failed"} 1');
    expect(await ledger.seen(message(40, 'hi'))).toBe(true);
  });

  it('accepts a webhook update once stored, answers a second delivery as a duplicate, and refuses beyond the bound', async () => {
    const { api, pipeline } = setup({ maxPending: 1 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    api.beforeSend = () => held;
    expect(await Promise.all([pipeline.accept(message(50, 'hi')), pipeline.accept(message(50, 'hi'))])).toEqual(['accepted', 'duplicate']);
    expect(await pipeline.accept(message(51, 'hi', -300))).toBe('overloaded');
    expect(await pipeline.accept(message(50, 'hi'))).toBe('duplicate');
    release();
    await expect.poll(() => api.sent.length).toBe(1);
    await expect.poll(() => pipeline.inFlight).toBe(0);
    expect(await pipeline.accept(message(51, 'hi', -300))).toBe('accepted');
  });

  it('replays at start what an earlier run stored and never finished, and not what it committed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearsay-replay-'));
    const before = FileLedger.open({ dir, logger: createLogger({ level: 'silent' }), inbox: true });
    for (const id of [60, 61]) await before.accept(message(id, 'hi', -id));
    // 61 was done, but the run died before its inbox entry was finished.
    await before.journal.add(61, message(61, 'hi', -61));
    const { api, pipeline } = setup({ dir });
    expect(await pipeline.replayPending()).toBe(2);
    await expect.poll(() => api.sent.map((s) => s.chat_id)).toEqual([-60]);
    await expect.poll(() => pipeline.inFlight).toBe(0);
  });
});
