// The service's update pipeline as start.ts wires it: the chat sequencer (local, or across replicas on a shared
// store), the backends with their Idempotency-Keys, and the pipeline whose perform step sends the replies
// (rate-limited, retried), the media and the moderation calls.
import type { BotApi } from '../api/types.js';
import { Backends } from '../backends/backends.js';
import type { ServiceConfig } from '../config/types.js';
import { createActionPerformer } from '../delivery/perform-actions.js';
import { MediaSender } from '../delivery/media-sender.js';
import { ModerationCalls } from '../delivery/moderation-calls.js';
import { ReplySender } from '../delivery/reply-sender.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { LocalChatSequencer } from '../pipeline/chat-sequencer.js';
import type { ChatSequencer, StateCommit } from '../pipeline/ports.js';
import { UpdatePipeline } from '../pipeline/update-pipeline.js';
import type { RuleWatcher } from '../rules/watch.js';
import { callKey } from '../store/effect-ids.js';
import type { OpenedStore } from '../store/open-store.js';
import type { BotIdentity } from './bot-identity.js';
import { handoffContext } from './handoff-wiring.js';
import type { SandboxCompanion } from './sandbox-companion.js';

/** What a failed start undoes, in the order it was set up (undone in reverse). */
export type Cleanups = Array<() => Promise<void>>;

/** How long a reply may take before the chat is shown "typing…". */
const TYPING_AFTER_MS = 1000;

/** The configuration's backends, with their Idempotency-Keys: the bot's id and the update's call or the effect's id. */
export async function openBackends(config: ServiceConfig, bot: BotIdentity, metrics: ServiceMetrics, logger: Logger, cleanups: Cleanups): Promise<Backends> {
  // Keys name the bot too: two bots of one operator may share a backend, and their update ids overlap.
  const backends = await Backends.open({
    settings: config.backends,
    callKey: ({ update, index }) => `hearsay-${bot.id}-${callKey(update, index)}`,
    effectKey: (effectId) => `hearsay-${bot.id}-${effectId}`,
    metrics,
    logger,
  });
  cleanups.push(() => backends.close());
  return backends;
}

/** What the pipeline is made of (see createPipeline). */
export interface PipelineParts {
  config: ServiceConfig;
  sequencer: ChatSequencer;
  backends: Backends;
  api: BotApi;
  rules: RuleWatcher;
  bot: BotIdentity;
  store: OpenedStore;
  logger: Logger;
  metrics: ServiceMetrics;
  onTokenRejected(): void;
  onStateCommitted(commit: StateCommit): void;
  onEffectsCommitted(): void;
  companion: SandboxCompanion | undefined;
}

/** The update pipeline over the store, with the reply sender (rate-limited, retried) as its perform step. */
export function createPipeline(parts: PipelineParts): UpdatePipeline {
  const { config, sequencer, backends, rules, bot, store, logger, metrics, onTokenRejected, onStateCommitted, onEffectsCommitted, companion } = parts;
  // Against the sandbox, the answers go through the companion's client, which notes what each one sent.
  const api = companion?.api ?? parts.api;
  const sender = new ReplySender({ api, logger, metrics });
  const media = new MediaSender({ api, fileIds: store.mediaFileIds, logger, metrics });
  return new UpdatePipeline({
    ledger: store.ledger,
    states: store.ledger,
    sequencer,
    rules,
    context: {
      botUsername: bot.username,
      chats: new Map(Object.entries(config.chats)),
      backends: new Map(Object.entries(config.backends)),
      ...handoffContext(config),
    },
    // "typing…" shows for a reply still going out after 1 s; a rule's photo is uploaded once (its file_id kept in the store).
    perform: createActionPerformer({ sender, api, logger, moderation: new ModerationCalls({ api, logger, metrics }), media, typingAfterMs: TYPING_AFTER_MS }),
    backends,
    logger,
    metrics,
    logUnmatched: config.log.unmatched,
    maxPending: config.delivery.maxPending,
    // A shared store orders a chat's updates across replicas by their store, so each is stored before it runs.
    storeFirst: store.shared !== null,
    onTokenRejected,
    onStateCommitted,
    onEffectsCommitted,
    ...(companion ? { onHandled: (handled, explanation) => companion.explain(handled, explanation) } : {}),
  });
}

/** On a shared store a chat's updates also wait for each other across replicas. */
export function chatSequencer(config: ServiceConfig, store: OpenedStore): ChatSequencer {
  const { concurrency } = config.delivery;
  return store.shared ? store.shared.sequencer(concurrency) : new LocalChatSequencer({ concurrency });
}
