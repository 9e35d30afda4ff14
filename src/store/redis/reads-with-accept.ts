// State read with an update's intent in the script call that stored it (a webhook replica's accept, or an update the
// polling leader kept: see ChatStateStore.acceptAndBegin and PollLeadership.acceptAndKeep), and whether that read may
// still stand for the update's own read when it runs: unless a state change of no update (a flow's timeout, a
// hand-off signal, a broadcast's mark) went out from this replica after the read was asked for. Such a change of
// the update's chat runs in the chat's turn here, so it could land between the two; one from another replica meets
// the commit's check of what was read, as it would after a begin.
import type { BegunRead } from '../../pipeline/ports.js';

/** What an accept read: the documents' store keys and values, and the state changes sent before it went out. */
interface ReadWithAccept extends BegunRead {
  readonly keys: readonly string[];
  readonly values: readonly string[];
  readonly stateChanges: number;
}

/** One replica ledger's reads taken with accepts (see the module's comment). */
export class ReadsWithAccept {
  private stateChangesSent = 0;

  /** A state change of no update goes out now (each attempt of it): reads asked for before it no longer stand. */
  noteStateChange(): void {
    this.stateChangesSent += 1;
  }

  /** Before the accept goes out: the read it takes, once its values are known. */
  asked(keys: readonly string[]): (values: readonly string[]) => BegunRead {
    const stateChanges = this.stateChangesSent;
    return (values): ReadWithAccept => ({ begunWithAccept: true, keys, values, stateChanges });
  }

  /** The values of `keys` the accept read, when they still stand; undefined when the documents must be read (and the update begun) now. */
  valuesFor(begun: BegunRead | undefined, keys: readonly string[]): string[] | undefined {
    const read = begun as ReadWithAccept | undefined;
    if (!read || read.stateChanges !== this.stateChangesSent || read.keys.length !== keys.length) return undefined;
    return read.keys.every((key, i) => key === keys[i]) ? [...read.values] : undefined;
  }
}
