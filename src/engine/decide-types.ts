// The shapes decide works with besides events, actions and state: its context and its decision. Kept apart
// from decide.ts so the modules that build decisions (answers, flows) need not import decide itself.
import type { Action } from './actions.js';
import type { CallRecord, PendingCall } from './backend-calls.js';
import type { HandoffSettings } from './handoff.js';
import type { MatchVia } from './match.js';

export type { MatchVia } from './match.js';

/** What decide needs besides the event, the rules and the state. */
export interface DecideContext {
  /** The bot's own username, to tell `/cmd@thisbot` from `/cmd@otherbot`. */
  readonly botUsername: string;
  /** Picks among a rule's alternative replies; returns a number in [0, 1) like Math.random (the default). */
  readonly random?: () => number;
  /** The current time in milliseconds since the epoch, like Date.now (the default): flows record and time out by it. */
  readonly now?: () => number;
  /** The configuration's named chats (`chats:`), by name: where a rule's `send: { to: name }` goes. */
  readonly chats?: ReadonlyMap<string, number | string>;
  /** The configuration's backends (`backends:`), by name: how long a `notify` to each is retried. */
  readonly backends?: ReadonlyMap<string, { readonly giveUpAfterMs: number }>;
  /** The configuration's `handoff:` block (its chat resolved to an id), when hand-off is configured. */
  readonly handoff?: HandoffSettings;
}

/** The outcome for one event. */
export interface Decision {
  /**
   * What answered: a rule's id, a flow's id when a message started it, or `<flow>#<step>`, `<flow>#done`,
   * `<flow>#cancel`, `<flow>#timeout`, `<flow>#ended` (left after a reload) for what a flow did; null when
   * nothing answered.
   */
  readonly ruleId: string | null;
  /** What to do, in order (state changes before the messages that follow from them); empty when there is nothing to do. */
  readonly actions: readonly Action[];
  /**
   * Set when the decision needs a backend's answer before it is complete: the caller makes the request and
   * completes the decision with `continueDecision` (backend-calls.ts); `actions` are those decided before it.
   */
  readonly call?: PendingCall;
  /** The backend calls made for this decision so far, in order (set by `continueDecision`). */
  readonly calls?: readonly CallRecord[];
  /**
   * How the rule was reached when not by its words as written: `forms` (another form of a word, with the
   * language whose stems matched), `corrected` (typos corrected, each `{ from, to }`: "shiping" → "shipping"),
   * or `suggested` (the user pressed it among suggestions, or "None of these": `declined`). Absent for an exact match and for what flows do.
   */
  readonly via?: MatchVia;
  /** For a message no rule matched: the ids of the rules offered as suggestions (`suggest:`), best first. */
  readonly suggested?: readonly string[];
  /** With `suggest: { when_contested: true }`: the rule that matched the message by its keywords, offered among others closer to it. */
  readonly contested?: string;
  /**
   * For a keywords rule (or flow start) that answered a message: the keyword or phrase the message holds, as the
   * rule's index compares it (normalised, synonyms applied). What answered and how is told from it, `via` and
   * `ruleId` (the rule's trigger) in the `update handled` log line and the "why" of an answer.
   */
  readonly keyword?: string;
}

/** Nothing to do. */
export const NOTHING: Decision = Object.freeze({ ruleId: null, actions: Object.freeze([]) });
