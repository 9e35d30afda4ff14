// The hand-off's wiring into a running service: the configuration's `handoff:` block as decide takes it, and
// the performer of `handoff` effects, which reads the customer's state and feeds signals back to the pipeline.
import type { BotApi } from '../api/types.js';
import type { ServiceConfig } from '../config/types.js';
import { handoffEffectPerformer } from '../delivery/handoff-effects.js';
import type { HandoffSettings } from '../engine/handoff.js';
import { normalize } from '../engine/normalize.js';
import type { EffectPerformer } from '../pipeline/outbox.js';
import type { UpdatePipeline } from '../pipeline/update-pipeline.js';
import type { OpenedStore } from '../store/open-store.js';

/** The configuration's `handoff:` as decide takes it (end words normalised like text triggers); nothing without one. */
export function handoffContext(config: ServiceConfig): { handoff?: HandoffSettings } {
  const block = config.handoff;
  if (!block || typeof block.chatId !== 'number') return {};
  return { handoff: { chatId: block.chatId, idleMs: block.idleMs, endWords: new Set(block.end.map((word) => normalize(word))) } };
}

/** The performer of `handoff` effects: the customer's state from the store, signals through the pipeline. */
export function handoffPerformer(api: BotApi, store: OpenedStore, pipeline: () => UpdatePipeline): EffectPerformer {
  return handoffEffectPerformer(api, {
    stateOf: (customer) => store.ledger.load({ chatId: customer, userId: customer }),
    signal: (event, cause, abort) => pipeline().handoffSignal(event, cause, abort),
  });
}
