// The compiled form of a conversation test file: who talks where, the steps with their source positions,
// and what each step expects. Built by load-tests.ts; read by the runner, the report and --update.
import type { SourcePosition } from '../diagnostics/problem.js';
import type { JsonValue } from '../engine/actions.js';
import type { BackendMethod, BackendResult } from '../engine/backend-calls.js';
import type { LazyPattern } from '../engine/lazy-pattern.js';
import type { NodePath } from '../yaml/source.js';
import type { ExpectedModeration } from './moderation-double.js';

/** A user of a test, as the service describes them. */
export interface TestUser {
  readonly key: string;
  readonly id: number;
  readonly first_name: string;
  readonly last_name?: string;
  readonly username?: string;
  readonly language_code?: string;
}

/** A chat of a test: `private` means each user's own chat with the bot. */
export interface TestChat {
  readonly key: string;
  readonly type: 'private' | 'group' | 'supergroup';
  /** For groups; a private chat's id is its user's id. */
  readonly id: number;
  readonly title: string;
  readonly privacy: boolean;
  /** `admin:` the bot's administrator rights in a group (it then receives every message); undefined: no administrator. */
  readonly adminRights?: ReadonlySet<string>;
  /** A supergroup with topics (`forum: true`). */
  readonly forum?: boolean;
}

/** The test's hand-off (`handoff:`): the staff group among its chats, the idle time and the end words. */
export interface TestHandoff {
  readonly chat: TestChat;
  readonly idleMs: number | null;
  readonly end: readonly string[];
}

/** How a text is compared; a pattern is RE2 syntax, run on the rules' own linear-time engine (case-sensitive). */
export type TextMatcher =
  | { readonly kind: 'exact'; readonly text: string }
  | { readonly kind: 'contains'; readonly text: string }
  | { readonly kind: 'pattern'; readonly source: string; readonly pattern: LazyPattern };

/** One thing the bot must do, in order. */
export type ExpectedOutput =
  | {
      readonly kind: 'message';
      readonly text?: TextMatcher;
      readonly buttons?: readonly (readonly string[])[];
      readonly flatButtons: boolean;
      /** The rules the message offers as suggestions (`suggest:`), by id, best first. */
      readonly suggestions?: readonly string[];
      /** `in`: the chat it went to, by the test's name for it; `topic_of`: the user whose hand-off topic it went into. */
      readonly in?: string;
      readonly topicOf?: string;
    }
  | { readonly kind: 'edit'; readonly text: TextMatcher }
  | { readonly kind: 'answer'; readonly text: TextMatcher; readonly alert?: boolean }
  | ExpectedModeration;

/** What happens in a step. */
export type StepAction =
  /** `times`: sent that many times in a row, within the same second (a flood); 1 for a plain step. */
  | { readonly kind: 'say'; readonly text: string; readonly reply: boolean; readonly topicOf?: TestUser; readonly times: number }
  /** A photo, a location … (`send:`): the Message fields it adds, and how the report names it; `times` as for `say`. */
  | { readonly kind: 'send'; readonly fields: Readonly<Record<string, unknown>>; readonly label: string; readonly times: number }
  | { readonly kind: 'press'; readonly by: 'text' | 'data' | 'suggestion'; readonly value: string }
  | { readonly kind: 'wait'; readonly ms: number; readonly source: string }
  | { readonly kind: 'join' | 'leave'; readonly users: readonly TestUser[] }
  /** `request_join: ben`: the user asks to join the group (the bot, an administrator with can_invite_users, gets a chat_join_request). */
  | { readonly kind: 'request_join'; readonly user: TestUser }
  | { readonly kind: 'none' };

/** Canned answers by backend, then by request (`GET /orders/4711`). */
export type CannedAnswers = ReadonlyMap<string, ReadonlyMap<string, BackendResult>>;

/** A backend request a step expects the bot to have made, once. */
export interface ExpectedCall {
  readonly backend: string;
  readonly method: BackendMethod;
  readonly path: string;
  /** What the body must contain (the keys given); undefined: not checked. */
  readonly body?: JsonValue;
}

/** A state expectation: `user.x`, `chat.x`, `flow` (the flow's id) or `flow.x` (an answer) → value, null for none. */
export type ExpectedState = ReadonlyMap<string, string | number | null>;

export interface TestStep {
  /** 0-based. */
  readonly index: number;
  /** The step's position (its first key), for failure reports. */
  readonly position: SourcePosition;
  /** Where the step sits in the file's data: ['tests', i, 'steps', j]. */
  readonly path: NodePath;
  readonly action: StepAction;
  readonly user: TestUser;
  readonly chat: TestChat;
  /** undefined: not checked; 'record': `expect:` left empty for --update to fill; else silence or outputs in order. */
  readonly expect: undefined | 'record' | 'nothing' | readonly ExpectedOutput[];
  readonly state?: ExpectedState;
  /** `expect_call`: the backend requests made since the last step that checked them. */
  readonly expectCalls?: readonly ExpectedCall[];
  /** The step as the report names it, e.g. `say: /book`. */
  readonly label: string;
}

export interface ConversationTest {
  readonly name: string;
  readonly position: SourcePosition;
  readonly users: readonly TestUser[];
  readonly chats: readonly TestChat[];
  readonly steps: readonly TestStep[];
  /** The file's canned backend answers with this test's own over them. */
  readonly backends: CannedAnswers;
  readonly handoff?: TestHandoff;
  /** `clock:`: where the test's clock starts (ms since the epoch); the default epoch when absent. */
  readonly clock?: number;
}

export interface TestFile {
  readonly file: string;
  /** The rules these tests run against (resolved path). */
  readonly rulesPath: string;
  readonly botUsername: string;
  readonly tests: readonly ConversationTest[];
}

export const DEFAULT_BOT_USERNAME = 'hearsay_test_bot';
