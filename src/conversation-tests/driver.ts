// The seam between the test runner and the bot under test: the runner hands in updates and moves the
// clock; a driver makes the bot handle them (through decide alone, or through the full update pipeline)
// and performs what it decides on the Bot API double. The runner never knows which driver it has.
import type { Update } from '@grammyjs/types';
import type { HandoffSettings } from '../engine/handoff.js';
import type { RuleSet } from '../engine/rule-set.js';
import type { ConversationState } from '../engine/state.js';
import type { UpdatePipelineOptions } from '../pipeline/pipeline-options.js';
import type { BotApiDouble } from './bot-api-double.js';
import type { CannedBackends } from './canned-backends.js';

/** The frozen clock of one test: it moves only when a step says `wait`. */
export interface TestClock {
  now: number;
}

/** What the bot answered with, for coverage: the decision's rule id and the flow steps it asked. */
export interface DecisionRecord {
  readonly ruleId: string | null;
  /** `<flow>#<step>` for each step the decision moved a user to (a question asked). */
  readonly stepsAsked: readonly string[];
  /** The rules offered as suggestions (`suggest:`), best first, when the decision asked instead of answering. */
  readonly suggested?: readonly string[];
}

/** An inline button a test pressed, for coverage: the rule that put it on its message, its place there, its data. */
export interface PressRecord {
  readonly sentBy: string | null;
  readonly row: number;
  readonly column: number;
  readonly data: string | undefined;
}

export interface DriverOptions {
  readonly ruleSet: RuleSet;
  readonly botUsername: string;
  readonly api: BotApiDouble;
  readonly clock: TestClock;
  /** Picks among a rule's alternative replies; seeded per test so a run is reproducible. */
  readonly random: () => number;
  /** The backends the rules call and notify: canned answers, every request recorded (none: every request is unanswered). */
  readonly backends?: CannedBackends;
  /** Told about every decision the bot made. */
  readonly onDecision: (record: DecisionRecord) => void;
  /** The live rules, when they may change while the bot runs (`hearsay chat` reloads them); `ruleSet` otherwise. */
  readonly rules?: { readonly current: RuleSet };
  /** The test's hand-off (`handoff:`), its staff group resolved to an id (the pipeline driver only). */
  readonly handoff?: HandoffSettings;
  /** Told why each update was answered as it was (the pipeline driver only; `hearsay chat --why`). */
  readonly onHandled?: UpdatePipelineOptions['onHandled'];
  /** The test's chats by name, standing for the configuration's `chats:` (where a schedule's `to` posts; the pipeline driver only). */
  readonly chats?: Readonly<Record<string, number>>;
}

/** A bot under test. */
export interface BotDriver {
  /** Resolves once the update is handled completely (decided, performed, state committed). */
  handle(update: Update): Promise<void>;
  /** Moves the clock to `now`, firing in order (each at its own time) the flow timeouts that fall due on the way. */
  advanceTo(now: number): Promise<void>;
  /** The committed state of a user in a chat. */
  state(chatId: number, userId: number): Promise<ConversationState>;
  /** The bot's warnings and errors logged since the last call (a failed edit, a dropped reply), for the failure report. */
  takeLog?(): string[];
  close(): Promise<void>;
}

export type DriverFactory = (options: DriverOptions) => BotDriver;
