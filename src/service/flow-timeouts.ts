// Flow timeouts in the running service: a timer per user in an unfinished flow, set from the stored flows
// at start (so timeouts survive a restart, and those that fell due while hearsay was stopped fire at once),
// moved after every commit that changes a flow, and recomputed when the rules reload (a timeout may have
// changed). A due timer asks the pipeline for a flow_timeout, which decides on the state of that moment.
import { FlowTimers } from '../conversation/flow-timers.js';
import { flowDeadline } from '../engine/flows.js';
import type { RuleSet } from '../engine/rule-set.js';
import type { Logger } from '../log/logger.js';
import type { ChatStateStore, StateCommit } from '../pipeline/ports.js';

export interface FlowTimeoutParts {
  store: Pick<ChatStateStore, 'flows'>;
  rules: { readonly current: RuleSet };
  /** Raises the timeout (the pipeline's flowTimeout). */
  fire(chatId: number, userId: number): Promise<void>;
  logger: Logger;
}

/** The service's flow timeouts; `schedule()` once the pipeline runs, `onCommitted` after each commit, `close` at stop. */
export class FlowTimeouts {
  private readonly timers: FlowTimers;

  constructor(private readonly parts: FlowTimeoutParts) {
    this.timers = new FlowTimers((key) => void parts.fire(key.chatId, key.userId));
  }

  /** (Re)sets every stored flow's timer by the current rules. */
  async schedule(): Promise<void> {
    const flows = await this.parts.store.flows();
    for (const { chatId, userId, position } of flows) this.timers.set({ chatId, userId }, flowDeadline(position, this.parts.rules.current));
    if (flows.length > 0) this.parts.logger.debug({ flows: flows.length, timers: this.timers.size }, 'flow timeouts scheduled');
  }

  /** Moves the timer of a flow a commit started, moved on or left. */
  onCommitted(commit: StateCommit): void {
    const { chatId, userId } = commit.scope;
    if (chatId === null || userId === null) return;
    for (const change of commit.changes) {
      if (change.type !== 'set_flow') continue;
      this.timers.set({ chatId, userId }, change.flow ? flowDeadline(change.flow, this.parts.rules.current) : null);
    }
  }

  /** Stops every timer (the service is stopping). */
  close(): void {
    this.timers.close();
  }
}
