// The compiled, immutable rule set: rules in the global order (files by name, rules in file order)
// plus the indexes that find command, text and keyword candidates without scanning every rule.
import type { IncomingLimit } from './flood-control.js';
import type { CompiledOpen } from './time-settings.js';
import type { CompiledReminders } from './compile-reminders.js';
import type { CompiledSchedule } from './compile-schedules.js';
import type { DayBound } from './date-bounds.js';
import type { FuzzyIndex } from './fuzzy.js';
import type { CommandDescription } from './compile-description.js';
import type { Suggestions } from './suggestions.js';
import type { SynonymTable } from './synonyms.js';
import type { WordForms } from './word-forms.js';
import type { LanguageSettings, LocalizedTemplates, StaticText } from './languages.js';
import type { LazyPattern } from './lazy-pattern.js';
import type { CompiledMedia } from './media.js';
import type { IncomingMediaKind } from './message-media.js';
import type { PatternIndex } from './pattern-index.js';
import type { ParseMode } from './reply.js';
import type { InlineKeyboardTemplate, ReplyKeyboardTemplate } from './keyboards.js';
import type { Template } from './template.js';
import type { CompiledRequest } from './compile-calls.js';
import type { CompiledCall } from './compile-rule-calls.js';
import type { CompiledModeration } from './compile-moderation.js';
import type { CompiledRelay, CompiledSend } from './compile-sends.js';
import type { CompiledAssignment, CompiledCondition } from './variables.js';

export type CompiledTrigger =
  | { readonly kind: 'command'; readonly name: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'pattern'; readonly source: string; readonly pattern: LazyPattern }
  /**
   * `keywords` (any of them) and/or `all` (every word of one group): normalised, synonyms applied. `keywords`
   * or `all` may be empty, not both.
   */
  | {
      readonly kind: 'keywords';
      readonly keywords: readonly string[];
      readonly all: readonly AllGroup[];
      /** The languages a keyword was listed under (`keywords: { en: [...], de: [...] }`); a keyword of a plain list has none. */
      readonly keywordLanguages: ReadonlyMap<string, readonly string[]>;
    }
  | { readonly kind: 'fallback' }
  /** A button press whose callback data the pattern finds (case-insensitive unless case_sensitive). */
  | { readonly kind: 'callback'; readonly source: string; readonly pattern: LazyPattern }
  | { readonly kind: 'event'; readonly event: RuleEvent }
  /** A message with this media (or any), whose caption the filter (when given) must match. */
  | { readonly kind: 'media'; readonly media: IncomingMediaKind | 'any'; readonly caption: CaptionFilter | null };

/** What a media rule asks of the caption: one of its keywords (as whole words), or its pattern. */
export type CaptionFilter = { readonly kind: 'keywords'; readonly keywords: readonly string[] } | { readonly kind: 'pattern'; readonly pattern: LazyPattern };

/** What an `event` rule answers: a member joining or leaving, the bot's own status, a join request, a restriction. */
export type RuleEvent =
  'member_joined' | 'member_left' | 'blocked' | 'unblocked' | 'bot_added' | 'bot_removed' | 'join_request' | 'member_restricted' | 'flooding';

/** One group of an `all` trigger: the message must contain every word (or phrase), in any order. */
export interface AllGroup {
  readonly words: readonly string[];
  /** The language it was listed under (`all: { en: [...], de: [...] }`); null for a plain list. */
  readonly language: string | null;
}

/** One message of a rule's `messages` sequence, with its own options. */
export interface CompiledMessage {
  /** Its text; null for a message that is only media. */
  readonly texts: LocalizedTemplates | null;
  /** Its photo or other media (sent after the text when it has both); null when none. */
  readonly media: CompiledMedia | null;
  /** This message's own inline buttons or reply keyboard; null when it has none. */
  readonly buttons: InlineKeyboardTemplate | null;
  readonly keyboard: ReplyKeyboardTemplate | null;
  readonly parseMode?: ParseMode;
  readonly replyToMessage: boolean;
  readonly disableNotification: boolean;
}

export interface CompiledRule {
  readonly id: string;
  /** Position in the global order; the lowest matching position wins. */
  readonly order: number;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly trigger: CompiledTrigger;
  readonly caseSensitive: boolean;
  readonly chatTypes: ReadonlySet<string> | null;
  readonly chats: ReadonlySet<number> | null;
  /** `topics`: the forum topics (message_thread_id) the rule answers in; null: any. */
  readonly topics: ReadonlySet<number> | null;
  /** The reply alternatives; empty for a callback rule that only answers or edits. */
  readonly replies: readonly Template[];
  /** The reply per language, when it was given per language (`replies` is then the default language's). */
  readonly localizedReplies?: LocalizedTemplates;
  /** `messages`: a sequence sent in order instead of one reply. */
  readonly messages?: readonly CompiledMessage[];
  /** The rule's photo or other media, sent after its reply (if any); null when none. */
  readonly media: CompiledMedia | null;
  /** `lang`: only users of these languages; null for everyone. */
  readonly lang: ReadonlySet<string> | null;
  /** `mentioned: true`: only messages that mention the bot or reply to it. */
  readonly mentioned: boolean;
  /** `fuzzy: auto` (or the file default): the text or keywords also match words with a typo. */
  readonly fuzzy: boolean;
  /** `forms: auto` (or the file default): the text or keywords also match other forms of their words (by stem). */
  readonly forms: boolean;
  readonly parseMode?: ParseMode;
  /** The rule's `buttons` (on the reply, or on the edited message when the rule has `edit`); null when none. */
  readonly buttons: InlineKeyboardTemplate | null;
  /** The rule's `keyboard` (a reply keyboard or its removal), sent with the reply; null when none. */
  readonly keyboard: ReplyKeyboardTemplate | null;
  /** For a callback rule: the answer's text (null: an empty answer) and whether it is an alert. */
  readonly answer: Template | null;
  readonly alert: boolean;
  /** For a callback rule: the new text of the message that held the button; null when it is not edited. */
  readonly edit: Template | null;
  readonly replyToMessage: boolean;
  readonly disableNotification: boolean;
  readonly examples: readonly string[];
  /** For a command rule: its line in the / command menu (one text, or one per language); absent when none. */
  readonly description?: CommandDescription;
  /** The rule's `when` on variables; null when it has none. */
  readonly when: readonly CompiledCondition[] | null;
  /** `open:`: only while the named opening hours are open (or closed); null when it has none. */
  readonly open: CompiledOpen | null;
  /** The rule's `set`, applied before its reply is rendered. */
  readonly set: readonly CompiledAssignment[];
  /** Whether the rule also answers users inside a flow. */
  readonly duringFlows: boolean;
  /** `handoff: true` hands the user to a person (`start`); `handoff: false` hands them back (`end`). */
  readonly handoff?: 'start' | 'end';
  /** Whether the rule also answers a handed-off user (who otherwise talks to staff only). */
  readonly duringHandoff: boolean;
  /** `send`: messages to other chats, as outbox effects after the reply; empty when none. */
  readonly sends: readonly CompiledSend[];
  /** `call` with its `on` branches: the reply waits for the backend's answer; absent when the rule calls none. */
  readonly call?: CompiledCall;
  /** `notify`: requests to backends, as outbox effects after the reply; absent or empty when none. */
  readonly notifies?: readonly CompiledRequest[];
  /** What the rule does to the group besides answering (delete, restrict, ban, pin…); null when nothing. */
  readonly moderation: CompiledModeration | null;
  /** `forward` and `copy`: the user's message itself to other chats, as outbox effects after `send`; empty when none. */
  readonly relays: readonly CompiledRelay[];
  /** `remind` and `forget_reminder`: messages to this user in this chat at a later time. */
  readonly reminders: CompiledReminders;
  /** For the start of a flow (compiled as a rule under the flow's id): that flow's id. */
  readonly startsFlow?: string;
  /** `suggest: false` makes this false: the rule is never offered among suggestions. */
  readonly suggest: boolean;
  /** `label`: how the rule is named when it is suggested; null: its first example (see suggestions.ts). */
  readonly label: StaticText | null;
}

/** What a step takes as its answer. */
export type CompiledAccept =
  | { readonly kind: 'text' }
  | { readonly kind: 'pattern'; readonly source: string; readonly pattern: LazyPattern; readonly caseSensitive: boolean }
  | { readonly kind: 'number'; readonly min: number; readonly max: number; readonly decimal: boolean }
  /** The answer's text, accepted when this backend request answers 2xx (its JSON kept with the step). */
  | { readonly kind: 'call'; readonly request: CompiledRequest }
  /** Normalised word (and the option's own value) → the option's value. */
  | {
      readonly kind: 'choice';
      readonly options: ReadonlyMap<string, string>;
      readonly caseSensitive: boolean;
      /** The options' values (keys) in the order written: the buttons shown, and what a press's index names. */
      readonly choices: readonly string[];
      /** Each option's `label` (by the same index), null where it has none: its button then shows the key. */
      readonly labels: readonly (StaticText | null)[];
    }
  /** A photo, a location … (`accept: { photo: true }`): its file_id, "latitude,longitude" or phone number is kept. */
  | { readonly kind: 'media'; readonly media: IncomingMediaKind }
  /** A date, kept as YYYY-MM-DD; `from`/`to` are judged on the day the answer comes, in `zone`. */
  | { readonly kind: 'date'; readonly from: DayBound | null; readonly to: DayBound | null; readonly zone: string }
  /** A time of day, kept as HH:MM; `from`/`to` in minutes of the day. */
  | { readonly kind: 'time'; readonly from: number | null; readonly to: number | null };

export interface CompiledStep {
  readonly id: string;
  readonly ask: Template;
  /** Null: the question is asked again. */
  readonly retry: Template | null;
  /** A date step's text for a date in the past, and a date or time step's for one outside from … to; null when not given. */
  readonly retryPast: Template | null;
  readonly retryRange: Template | null;
  readonly accept: CompiledAccept;
  /** How a choice step shows its options: buttons under the question, a reply keyboard, or nothing. */
  readonly buttons: 'inline' | 'keyboard' | 'none';
  /** A photo or other media sent before the question; null when none. */
  readonly media: CompiledMedia | null;
}

export interface CompiledDoneBranch {
  readonly when: readonly CompiledCondition[] | null;
  /** `open:` of the branch; null when it has none. */
  readonly open: CompiledOpen | null;
  readonly set: readonly CompiledAssignment[];
  readonly reply: Template | null;
  /** A photo or other media sent after the reply; null when none. */
  readonly media: CompiledMedia | null;
  /** `call` with its `on` branches: the flow's last reply waits for the backend's answer. */
  readonly call?: { readonly request: CompiledRequest; readonly on: ReadonlyMap<string, CompiledFlowBranch> };
  /** `notify`: requests to backends through the outbox; empty when none. */
  readonly notifies: readonly CompiledRequest[];
  /** `handoff: true`: the user is handed to a person when the flow ends here. */
  readonly handoff: boolean;
  /** `remind` and `forget_reminder`: messages to this user in this chat at a later time. */
  readonly reminders: CompiledReminders;
  /** What the branch does to the group (the flow's user; a join flow's request); null when nothing. */
  readonly moderation: CompiledModeration | null;
}

/** One branch of a done branch's call: its reply, `set` and notifies. */
export interface CompiledFlowBranch {
  readonly set: readonly CompiledAssignment[];
  readonly reply: Template | null;
  readonly notifies: readonly CompiledRequest[];
  /** A photo or other media sent after the reply; null when none. */
  readonly media: CompiledMedia | null;
  /** `handoff: true`: the user is handed to a person after the branch's reply. */
  readonly handoff: boolean;
}

/** A multi-step conversation; its start is a rule of the rule set (CompiledRule.startsFlow). */
export interface CompiledFlow {
  readonly id: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly steps: readonly CompiledStep[];
  /** Step id → index in `steps`. */
  readonly stepIndex: ReadonlyMap<string, number>;
  readonly cancel: { readonly keywords: readonly string[]; readonly command: string | null; readonly reply: Template } | null;
  readonly timeout: { readonly afterMs: number; readonly reply: Template } | null;
  readonly done: readonly CompiledDoneBranch[];
}

/** One keyword of one rule, filed under one of its words (a whole word run of any occurrence): `lead` is
 * that word's offset in the keyword (e.g. 1 after '#'). */
export interface KeywordEntry {
  readonly keyword: string;
  readonly lead: number;
  readonly rule: CompiledRule;
}

/** One `all` group of one rule, filed under one of its words (the least shared). */
export interface AllEntry {
  readonly words: readonly string[];
  readonly rule: CompiledRule;
}

/** The text, keyword and `all` triggers of some rules, as one way of reading the message sees them. */
export interface WordView {
  /** The whole message as this view reads it → rules in order. */
  readonly text: ReadonlyMap<string, readonly CompiledRule[]>;
  /** A word of each keyword → entries in rule order. */
  readonly keywords: ReadonlyMap<string, readonly KeywordEntry[]>;
  /** A word of each `all` group → entries in rule order. */
  readonly all: ReadonlyMap<string, readonly AllEntry[]>;
  /** Whether the view has any trigger (a view without one costs a message nothing). */
  readonly size: number;
}

/** The triggers of `forms: auto` rules in one language: the message's words and theirs reduced to their stems. */
export interface FormsView extends WordView {
  readonly forms: WordForms;
  /** The synonyms with their entries stemmed, so the forms of a synonym stand for its group too. */
  readonly synonyms: SynonymTable;
  /** The lowest position of a rule in this view: a message already answered before it skips the view. */
  readonly firstOrder: number;
}

export interface RuleIndex {
  /** Lower-cased command name → rules in order. */
  readonly commands: ReadonlyMap<string, readonly CompiledRule[]>;
  /** The triggers compared with the normalised (case-folded) message; `exact` for case-sensitive rules. */
  readonly folded: WordView;
  readonly exact: WordView;
  /** The triggers of `forms: auto` rules, one view per language with a stemmer. */
  readonly forms: readonly FormsView[];
  /** Pattern rules, filed by a literal each match must contain (see pattern-index.ts). */
  readonly patterns: PatternIndex;
  readonly fallbacks: readonly CompiledRule[];
  /** `event` rules by event (member_joined, member_left), and media rules by kind (photo, …, `any`), in order. */
  readonly events: ReadonlyMap<string, readonly CompiledRule[]>;
  /** The vocabulary of fuzzy rules' texts and keywords, for typo-tolerant lookups; null when no rule is fuzzy. */
  readonly fuzzy: FuzzyIndex | null;
  /** `synonyms`: each entry of a group → the group's word (applied to triggers and messages alike); empty when none. */
  readonly synonyms: SynonymTable;
  /** Whether any rule needs the case-preserving normalised text (saves work per message when not). */
  readonly needsExact: boolean;
}

export interface RuleSet {
  readonly rules: readonly CompiledRule[];
  readonly files: readonly string[];
  readonly index: RuleIndex;
  /** The flows by id (empty when there are none). */
  readonly flows: ReadonlyMap<string, CompiledFlow>;
  /** The index of the rules with `during_flows: true`: what answers a user inside a flow before the step does. */
  readonly duringFlowsIndex: RuleIndex;
  /** The index of the rules with `during_handoff: true`: what still answers a handed-off user. */
  readonly duringHandoffIndex: RuleIndex;
  /** `handoff_end`'s reply: what a user is told when staff hand them back to the bot. */
  readonly handoffEnd?: Template;
  /** The callback rules (button presses) in the global order; never in `index`. */
  readonly callbacks: readonly CompiledRule[];
  /** The `languages` block, when the rules declare one. */
  readonly languages?: LanguageSettings;
  /** `suggest:` — the rules that may be offered when unsure, and their index; absent without the block. */
  readonly suggestions?: Suggestions;
  /** `limits.incoming`: how many messages of a user in a chat are answered in how long (flood control). */
  readonly incomingLimit?: IncomingLimit;
  /** Some rule or flow reads or writes member.*: hearsay then keeps `member.messages` and `member.joined_at`. */
  readonly keepsMembers?: boolean;
  /** `schedules:` — recurring posts to chats (empty when none). */
  readonly schedules: readonly CompiledSchedule[];
}
