// Scheduled posts over the memory store, with the clock the test moves: every replica's planner stores the next
// occurrence under one id (it is kept once, however many plan it), the outbox performs it once at its time with
// the text written then, the next one is planned when it comes, one missed by more than late_after is dropped
// (logged), and one whose schedule a reload removed sends nothing.
import { describe, expect, it } from 'vitest';
import { schedulePerformer } from '../../src/delivery/schedule-effects.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { createLogger } from '../../src/log/logger.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { LocalChatSequencer } from '../../src/pipeline/chat-sequencer.js';
import { OutboxRoom } from '../../src/pipeline/outbox.js';
import { SchedulePlanner } from '../../src/pipeline/schedules.js';
import { loadRules } from '../../src/rules/load.js';
import { MemoryStore, MemoryStoreData } from '../../src/store/memory/memory-store.js';
import { recordCapture } from '../support/log-capture.js';
import { withRuleDir } from '../rules/rule-files.js';

const RULES = `
timezone: Europe/Berlin
hours:
  office: { mon-fri: "09:00-18:00" }
schedules:
  - id: weekly-digest
    every: "mon 09:00"
    to: community
    reply: "Good morning! It is {{now.weekday}}, {{now.time}}; we close at {{hours.office.closes}}."
    late_after: 1h
rules:
  - id: ping
    command: ping
    reply: pong
`;

async function ruleSetOf(yaml: string): Promise<RuleSet> {
  const outcome = await withRuleDir({ 'bot.yaml': yaml }, (dir) => loadRules(dir, undefined, { chats: new Set(['community']), configFile: 'hearsay.yaml' }));
  expect(outcome.problems.map((p) => p.format())).toEqual([]);
  return outcome.ruleSet!;
}

// Monday 5 January 2026, 08:00 in Berlin (07:00 UTC).
const MONDAY_8 = Date.UTC(2026, 0, 5, 7);
const HOUR = 3_600_000;

async function world() {
  const rules = { current: await ruleSetOf(RULES) };
  const clock = { now: MONDAY_8 };
  const store = new MemoryStore(MemoryStoreData.create({ now: () => clock.now }));
  const sent: { chat: unknown; text: unknown }[] = [];
  const { destination, lines: log } = recordCapture();
  const logger = createLogger({ level: 'debug', destination });
  const chats = { community: -100123 };
  const room = new OutboxRoom({
    outbox: store,
    sequencer: new LocalChatSequencer({ concurrency: 2 }),
    performers: {
      schedule: schedulePerformer({
        schedules: () => rules.current.schedules,
        chats,
        logger,
        send: async (effect) => {
          const { params } = effect.payload as { params: { chat_id: unknown; text: unknown } };
          sent.push({ chat: params.chat_id, text: params.text });
          return { outcome: 'done' };
        },
      }),
    },
    logger,
    metrics: new ServiceMetrics({ processMetrics: false }),
    concurrency: 2,
    now: () => clock.now,
  });
  // Three replicas' planners over the one store.
  const planners = [1, 2, 3].map(() => new SchedulePlanner({ ledger: store, schedules: () => rules.current.schedules, chats, logger, now: () => clock.now }));
  const planAll = async () => {
    for (const planner of planners) await planner.plan();
  };
  return { rules, clock, store, sent, log, room, planAll };
}

describe('scheduled posts', () => {
  it('plans the next occurrence once whoever plans it, sends it once at its time, and plans the one after', async () => {
    const { clock, store, sent, room, planAll } = await world();
    await planAll();
    expect((await store.outboxStats(clock.now)).pending).toBe(1);
    expect(await store.nextDueAt()).toBe(MONDAY_8 + HOUR);
    clock.now = MONDAY_8 + HOUR;
    await room.performDue();
    await planAll();
    await room.performDue();
    expect(sent).toEqual([{ chat: -100123, text: 'Good morning! It is Monday, 09:00; we close at 18:00.' }]);
    // The next one, a week later.
    expect(await store.nextDueAt()).toBe(MONDAY_8 + HOUR + 7 * 24 * HOUR);
    clock.now += 7 * 24 * HOUR;
    await room.performDue();
    await planAll();
    expect(sent).toHaveLength(2);
    room.close();
  });

  it('drops an occurrence more than late_after overdue (the bot was down), logged, and plans the next', async () => {
    const { clock, store, sent, log, room, planAll } = await world();
    await planAll();
    // Down from 08:00 to 10:30: the 09:00 post is 90 minutes late.
    clock.now = MONDAY_8 + 2.5 * HOUR;
    await room.performDue();
    expect(sent).toEqual([]);
    expect(log.some((line) => line.msg === 'effect dropped: it is too late to perform it' && line.source === 'schedule:weekly-digest')).toBe(true);
    await planAll();
    expect(await store.nextDueAt()).toBe(MONDAY_8 + HOUR + 7 * 24 * HOUR);
    room.close();
  });

  it('sends nothing for an occurrence whose schedule a reload removed or moved', async () => {
    const { rules, clock, sent, log, room, planAll } = await world();
    await planAll();
    rules.current = await ruleSetOf(RULES.replace('every: "mon 09:00"', 'every: "tue 09:00"'));
    clock.now = MONDAY_8 + HOUR;
    await room.performDue();
    expect(sent).toEqual([]);
    expect(log.some((line) => line.msg === 'scheduled post not sent: the rules no longer schedule it then')).toBe(true);
    room.close();
  });
});
