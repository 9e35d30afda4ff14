// The service's outbox and what feeds it besides updates: the room that performs stored effects (messages to other
// chats and at later times, notifications to backends, scheduled posts, broadcasts' recipients), and the planner of the scheduled posts,
// which every replica runs (each occurrence is stored once, whoever plans it) and runs again after each reload.
import type { BotApi } from '../api/types.js';
import type { Backends } from '../backends/backends.js';
import type { ServiceConfig } from '../config/types.js';
import { broadcastPerformer, type BroadcastPerformer } from '../delivery/broadcast-effects.js';
import { messageEffectPerformer, storedUserLanguage } from '../delivery/message-effects.js';
import { schedulePerformer } from '../delivery/schedule-effects.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { OutboxRoom, type EffectPerformer } from '../pipeline/outbox.js';
import type { ChatSequencer } from '../pipeline/ports.js';
import { SchedulePlanner } from '../pipeline/schedules.js';
import type { RuleWatcher } from '../rules/watch.js';
import type { OpenedStore } from '../store/open-store.js';

/** On a shared store, how often each replica looks for effects the others stored. */
const OUTBOX_POLL_MS = 1000;

export interface OutboxParts {
  readonly config: ServiceConfig;
  readonly store: OpenedStore;
  readonly api: BotApi;
  readonly backends: Backends;
  readonly rules: RuleWatcher;
  readonly sequencer: ChatSequencer;
  readonly logger: Logger;
  readonly metrics: ServiceMetrics;
  readonly onTokenRejected: () => void;
  /** Performers of further kinds (the hand-off's). */
  readonly performers?: Readonly<Record<string, EffectPerformer>>;
}

/**
 * The outbox room over the store, with a performer for each kind of effect (not woken yet), and the broadcasts'
 * performer (its progress log stops with `close`).
 */
export function createOutbox({ config, store, api, backends, rules, sequencer, logger, metrics, onTokenRejected, performers }: OutboxParts): {
  outbox: OutboxRoom;
  broadcasts: BroadcastPerformer;
} {
  const message = messageEffectPerformer(
    api,
    storedUserLanguage(store.ledger, () => rules.current.languages),
  );
  const broadcasts = broadcastPerformer({ api, campaigns: store.campaigns, commitState: (state) => store.ledger.commitState(state), metrics, logger });
  const outbox = new OutboxRoom({
    outbox: store.ledger,
    sequencer,
    performers: {
      message,
      backend: backends.notifyPerformer(),
      schedule: schedulePerformer({ schedules: () => rules.current.schedules, chats: config.chats, send: message, logger }),
      broadcast: broadcasts.perform,
      ...performers,
    },
    logger,
    metrics,
    concurrency: config.delivery.concurrency,
    // Replicas add effects the others must see: each looks at least every second.
    pollEveryMs: store.shared ? OUTBOX_POLL_MS : null,
    onTokenRejected,
  });
  metrics.outboxStats = () => store.ledger.outboxStats(Date.now());
  return { outbox, broadcasts };
}

/** Plans the scheduled posts now and at each occurrence; `start()` again after a reload. */
export async function planSchedules(
  config: ServiceConfig,
  rules: RuleWatcher,
  store: OpenedStore,
  logger: Logger,
  outbox: OutboxRoom,
): Promise<SchedulePlanner> {
  const planner = new SchedulePlanner({
    ledger: store.ledger,
    schedules: () => rules.current.schedules,
    chats: config.chats,
    logger,
    onPlanned: () => outbox.wake(),
  });
  await planner.start();
  return planner;
}
