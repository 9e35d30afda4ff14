// A bot under test driven through the real update pipeline, as `hearsay run` handles updates: the memory
// store (the reference implementation of the store ports: nothing touches the disk), the per-chat sequencer,
// the service's perform step and reply sender talking to the Bot API double, the outbox performing the effects
// (messages to other chats, later messages) through the same double, and flow timeouts raised through the
// pipeline as the runtime's timers do. Only the network and the clock are replaced: effects and timeouts fire
// when the test's clock reaches them. The bot's warnings and errors are kept for the failure report.
import { Writable } from 'node:stream';
import type { Update } from '@grammyjs/types';
import type { BotApi } from '../api/types.js';
import { ReplySender } from '../delivery/reply-sender.js';
import { decide, type Decision } from '../engine/decide.js';
import { flowDeadline } from '../engine/flows.js';
import type { RuleSet } from '../engine/rule-set.js';
import { MemoryStore, MemoryStoreData } from '../store/memory/memory-store.js';
import { messageEffectPerformer, storedUserLanguage } from '../delivery/message-effects.js';
import { handoffEffectPerformer } from '../delivery/handoff-effects.js';
import { OutboxRoom } from '../pipeline/outbox.js';
import { SchedulePlanner } from '../pipeline/schedules.js';
import { schedulePerformer } from '../delivery/schedule-effects.js';
import { createLogger, type Logger } from '../log/logger.js';
import { ServiceMetrics } from '../ops/metrics.js';
import { LocalChatSequencer } from '../pipeline/chat-sequencer.js';
import { UpdatePipeline } from '../pipeline/update-pipeline.js';
import { createActionPerformer } from '../delivery/perform-actions.js';
import type { BotDriver, DecisionRecord, DriverOptions } from './driver.js';
import type { SetFlowAction } from '../engine/actions.js';
import type { BackendRequest } from '../engine/backend-calls.js';
import type { EffectPerformer } from '../pipeline/outbox.js';
import { CannedBackends } from './canned-backends.js';

/** A logger at `warn` whose lines are kept, each as its message and reason, for the failure report. */
function keptLog(): { log: string[]; logger: Logger } {
  const log: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString()) as { msg?: string; reason?: string; err?: { message?: string } };
      log.push([line.msg, line.reason ?? line.err?.message].filter(Boolean).join(': '));
      done();
    },
  });
  return { log, logger: createLogger({ level: 'warn', destination, pretty: false }) };
}

/** The open flow whose timeout is due first by `now`, if any. */
async function firstDueTimeout(ledger: MemoryStore, ruleSet: RuleSet, now: number) {
  return (await ledger.flows())
    .map((entry) => ({ ...entry, at: flowDeadline(entry.position, ruleSet) }))
    .filter((entry): entry is typeof entry & { at: number } => entry.at !== null && entry.at <= now)
    .sort((a, b) => a.at - b.at)[0];
}

/** `<flow>#<step>` for each step the actions move a user to. */
/** What the runner is told of a decision: its rule, the flow steps it asked, the rules it suggested. */
function decisionRecord(decision: Decision): DecisionRecord {
  return { ruleId: decision.ruleId, stepsAsked: stepsAskedIn(decision.actions), ...(decision.suggested ? { suggested: decision.suggested } : {}) };
}

function stepsAskedIn(actions: readonly { readonly type: string }[]): string[] {
  return actions.flatMap((a) =>
    a.type === 'set_flow' && (a as SetFlowAction).flow ? [`${(a as SetFlowAction).flow!.flowId}#${(a as SetFlowAction).flow!.stepId}`] : [],
  );
}

/** The outbox's performer of notifies: the canned backends answer, a 2xx is done, anything else given up. */
function cannedNotifies(backends: CannedBackends): EffectPerformer {
  return async (effect) => {
    const result = backends.notify(effect.payload as unknown as BackendRequest);
    return result.status !== null && result.status < 300 ? { outcome: 'done' } : { outcome: 'failed', reason: 'not answered 2xx' };
  };
}

export function createPipelineDriver(options: DriverOptions): BotDriver {
  const backends = options.backends ?? new CannedBackends(new Map());
  const { log, logger } = keptLog();
  const metrics = new ServiceMetrics({ processMetrics: false });
  const now = () => options.clock.now;
  const ledger = new MemoryStore(MemoryStoreData.create({ now, logger }));
  const api = options.api as unknown as BotApi;
  const sender = new ReplySender({ api, logger, metrics });
  const sequencer = new LocalChatSequencer({ concurrency: 1 });
  const schedules = () => (options.rules?.current ?? options.ruleSet).schedules;
  const languages = () => (options.rules?.current ?? options.ruleSet).languages;
  const chats = options.chats ?? {};
  const outbox = outboxRoom({ api, ledger, backends, sequencer, logger, metrics, now, schedules, languages, chats, pipeline: () => pipeline });
  const pipeline = new UpdatePipeline({
    ledger,
    states: ledger,
    sequencer,
    rules: options.rules ?? { current: options.ruleSet },
    context: { botUsername: options.botUsername, random: options.random, now, ...(options.handoff ? { handoff: options.handoff } : {}) },
    perform: createActionPerformer({ sender, api, logger }),
    backends,
    // A step a backend accepted is asked in the decision's continuation: the committed flow position says so.
    onStateCommitted: (commit) => options.onDecision({ ruleId: null, stepsAsked: stepsAskedIn(commit.changes) }),
    decide: (event, ruleSet, state, context) => {
      const decision = decide(event, ruleSet, state, context);
      options.onDecision(decisionRecord(decision));
      return decision;
    },
    logger,
    metrics,
    maxPending: 1000,
    ...(options.onHandled ? { onHandled: options.onHandled } : {}),
  });

  // The scheduled posts, planned as the service's planner does: the next occurrence, and the one after it once that went.
  const planner = new SchedulePlanner({ ledger, schedules, chats, logger, now });

  return {
    async handle(update: Update) {
      await pipeline.handle(update);
      // The update's effects that are due now go out before the next step, as the outbox sends them right after the commit.
      await outbox.performDue();
      await deliverServiceMessages(options.api, pipeline, outbox);
    },
    async advanceTo(until: number) {
      await advanceClock(until, { ledger, pipeline, outbox, planner, ruleSet: options.rules?.current ?? options.ruleSet, clock: options.clock });
      await deliverServiceMessages(options.api, pipeline, outbox);
    },
    async state(chatId: number, userId: number) {
      return ledger.load({ chatId, userId });
    },
    takeLog() {
      return log.splice(0);
    },
    async close() {
      outbox.close();
      await ledger.close();
    },
  };
}

/** The outbox with the service's performers (the network replaced by the double, the backends by canned answers). */
function outboxRoom(parts: {
  api: BotApi;
  ledger: MemoryStore;
  backends: CannedBackends;
  sequencer: LocalChatSequencer;
  logger: Logger;
  metrics: ServiceMetrics;
  now: () => number;
  schedules: () => RuleSet['schedules'];
  languages: () => RuleSet['languages'];
  chats: Readonly<Record<string, number>>;
  pipeline: () => UpdatePipeline;
}): OutboxRoom {
  const { api, ledger, backends, sequencer, logger, metrics, now, schedules, languages, chats, pipeline } = parts;
  const message = messageEffectPerformer(api, storedUserLanguage(ledger, languages));
  return new OutboxRoom({
    outbox: ledger,
    sequencer,
    performers: {
      message,
      backend: cannedNotifies(backends),
      handoff: handoffPerformer(api, ledger, pipeline),
      schedule: schedulePerformer({ schedules, chats, send: message, logger }),
    },
    logger,
    metrics,
    concurrency: 1,
    now,
  });
}

/** A hand-off's copies and signals, as the service performs them (see service/handoff-wiring.ts). */
function handoffPerformer(api: BotApi, ledger: MemoryStore, pipeline: () => UpdatePipeline): EffectPerformer {
  return handoffEffectPerformer(api, {
    stateOf: (customer) => ledger.load({ chatId: customer, userId: customer }),
    signal: (event, cause, abort) => pipeline().handoffSignal(event, cause, abort),
  });
}

/** The service messages the effects caused (a topic the bot created, a member it let in), handed to the bot as the service would, with what they cause in turn. */
async function deliverServiceMessages(api: DriverOptions['api'], pipeline: UpdatePipeline, outbox: OutboxRoom): Promise<void> {
  for (let update = api.serviceUpdates.shift(); update; update = api.serviceUpdates.shift()) {
    await pipeline.handle(update);
    await outbox.performDue();
  }
}

/** What moving the clock sets off. */
interface ClockParts {
  readonly ledger: MemoryStore;
  readonly pipeline: UpdatePipeline;
  readonly outbox: OutboxRoom;
  readonly planner: SchedulePlanner;
}

/**
 * Moves the test's clock to `until`: the runtime's timers fire each flow's timeout and each effect at its time;
 * the frozen clock jumps there instead, the earliest first.
 */
async function advanceClock(
  until: number,
  { ledger, pipeline, outbox, planner, ruleSet, clock }: ClockParts & { ruleSet: RuleSet; clock: { now: number } },
): Promise<void> {
  const fired = new Set<string>();
  for (;;) {
    await planner.plan();
    const timeout = await firstDueTimeout(ledger, ruleSet, until);
    const effectAt = await ledger.nextDueAt();
    if (effectAt !== null && effectAt <= until && (!timeout || effectAt < timeout.at)) {
      clock.now = Math.max(clock.now, effectAt);
      await outbox.performDue();
      continue;
    }
    if (!timeout) break;
    const key = `${timeout.chatId}:${timeout.userId}:${timeout.at}`;
    if (fired.has(key)) throw new Error(`the flow timeout of user ${timeout.userId} in chat ${timeout.chatId} did not end the flow`);
    fired.add(key);
    clock.now = Math.max(clock.now, timeout.at);
    await pipeline.flowTimeout(timeout.chatId, timeout.userId);
    await outbox.performDue();
  }
  clock.now = until;
}
