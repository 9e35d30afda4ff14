// `hearsay chat`: a conversation with the rules, in the terminal. The bot runs as `hearsay test` runs it — the update
// pipeline on the memory store, answering into the Bot API double — but on the real clock, so a flow times out as
// it would. The person at the keyboard can be any user (`:as Bob`), with any app language (`:lang de`), in their
// private chat or in a group (`:group Team`, where the bot keeps its privacy mode); buttons are numbered, and the
// why of each answer (the `update handled` line's data) can be shown under it.
import type { Update } from '@grammyjs/types';
import { BotApiDouble } from '../conversation-tests/bot-api-double.js';
import { ChatWorld, TEST_BOT_ID, type StepUpdate } from '../conversation-tests/chat-world.js';
import type { BotDriver } from '../conversation-tests/driver.js';
import type { TestChat, TestUser } from '../conversation-tests/model.js';
import { createPipelineDriver } from '../conversation-tests/pipeline-driver.js';
import type { RuleSet } from '../engine/rule-set.js';
import type { Explanation } from '../pipeline/explanation.js';
import { outputLines, type Choice } from './chat-output.js';

export interface ChatSessionOptions {
  /** The live rules (a watcher's `current` follows every reload). */
  readonly rules: { readonly current: RuleSet };
  readonly botUsername: string;
  /** Shows the why of each answer under it (`:why` toggles it). */
  readonly why: boolean;
  /** Where rule files are shown relative to, in the why lines. */
  readonly shownPath?: (file: string) => string;
  /** The first user: name and app language. */
  readonly user?: { readonly name: string; readonly language?: string };
}

/** Group chat ids of this session, far from any user id. */
const FIRST_GROUP_ID = -4_200_000_001;

export class ChatSession {
  why: boolean;
  private readonly clock = { now: Date.now() };
  private readonly api: BotApiDouble;
  private readonly world: ChatWorld;
  private readonly driver: BotDriver;
  private readonly users = new Map<string, TestUser>();
  private readonly groups = new Map<string, TestChat>();
  private user: TestUser;
  private chat: TestChat;
  /** Outputs of the double already shown. */
  private shown = 0;
  private choices: Choice[] = [];
  private readonly explanations: Explanation[] = [];

  constructor(private readonly options: ChatSessionOptions) {
    this.why = options.why;
    this.api = new BotApiDouble({ id: TEST_BOT_ID, username: options.botUsername, first_name: options.botUsername }, this.clock);
    this.world = new ChatWorld(this.api, this.clock, options.botUsername);
    this.driver = createPipelineDriver({
      ruleSet: options.rules.current,
      rules: options.rules,
      botUsername: options.botUsername,
      api: this.api,
      clock: this.clock,
      random: Math.random,
      onDecision: () => undefined,
      onHandled: (_handled, explanation) => this.explanations.push(explanation),
    });
    this.user = this.userNamed(options.user?.name ?? 'You', options.user?.language);
    this.chat = this.privateChat();
  }

  /** Who writes where, for the prompt: `Ann (de) in the private chat`, `Ann in Team`. */
  get where(): string {
    const language = this.user.language_code ? ` (${this.user.language_code})` : '';
    return `${this.user.first_name}${language} in ${this.chat.type === 'private' ? 'the private chat' : this.chat.title}`;
  }

  /** The person writes `text` in the current chat; the lines to show are what the bot did. */
  say(text: string): Promise<string[]> {
    return this.step(this.world.say(this.user, this.chat, text, false));
  }

  /** The person presses choice `n` (1-based) of the buttons shown last. */
  press(n: number): Promise<string[]> {
    const choice = this.choices[n - 1];
    if (!choice) return Promise.resolve([`(there is no choice ${n}${this.choices.length > 0 ? `: 1 to ${this.choices.length}` : ': no buttons are shown'})`]);
    return this.step(this.world.press(this.user, this.chat, choice.by, choice.value));
  }

  /** Whether a line that is only a number presses a button (buttons are shown) rather than being said. */
  get hasChoices(): boolean {
    return this.choices.length > 0;
  }

  /** Acts as the user called `name` from now on (a new one the first time). */
  actAs(name: string): string {
    this.user = this.userNamed(name, undefined);
    if (this.chat.type === 'private') this.chat = this.privateChat();
    this.choices = [];
    return `(you are ${this.where})`;
  }

  /** The current user's app language (`-` or nothing: none); their messages carry it as language_code. */
  setLanguage(code: string): string {
    const language = code === '' || code === '-' ? undefined : code;
    const { language_code: _old, ...rest } = this.user;
    this.user = { ...rest, ...(language ? { language_code: language } : {}) };
    this.users.set(this.user.first_name.toLowerCase(), this.user);
    return `(you are ${this.where})`;
  }

  /** Moves to the group `title` (made the first time; the bot keeps its privacy mode there) or back to the private chat. */
  moveTo(title: string | undefined): string {
    if (title === undefined) this.chat = this.privateChat();
    else {
      const key = title.toLowerCase();
      const group = this.groups.get(key) ?? { key, type: 'group' as const, id: FIRST_GROUP_ID - this.groups.size, title, privacy: true };
      this.groups.set(key, group);
      this.chat = group;
    }
    this.choices = [];
    return `(you are ${this.where})`;
  }

  /** The current user joins or leaves the group (the bot gets the service message, as a member event). */
  members(kind: 'join' | 'leave'): Promise<string[]> {
    if (this.chat.type === 'private') return Promise.resolve(['(:join and :leave are for groups: move to one with :group TITLE)']);
    return this.step(this.world.members(kind, [this.user], this.chat));
  }

  /** Moves the clock to now: a flow that timed out says so. */
  async tick(): Promise<string[]> {
    await this.driver.advanceTo(Date.now());
    return this.newOutputs();
  }

  close(): Promise<void> {
    return this.driver.close();
  }

  private async step(step: StepUpdate): Promise<string[]> {
    this.clock.now = Math.max(this.clock.now, Date.now());
    if (step.kind === 'problem' || step.kind === 'refused') return [`(${step.message})`];
    if (step.kind === 'unseen') {
      return [`(the bot does not see this: in a group it sees commands, @${this.options.botUsername} mentions and replies to its messages)`];
    }
    for (const update of step.updates) await this.driver.handle(update as Update);
    return this.newOutputs();
  }

  private newOutputs(): string[] {
    const outputs = this.api.outputs.slice(this.shown);
    this.shown = this.api.outputs.length;
    const explanations = this.explanations.splice(0);
    const shown = outputLines(outputs, {
      chatId: this.world.chatId(this.chat, this.user),
      chatName: (chatId) => [...this.groups.values()].find((group) => group.id === chatId)?.title ?? `the private chat of user ${chatId}`,
      explanations: this.why ? explanations : [],
      ...(this.options.shownPath ? { shownPath: this.options.shownPath } : {}),
    });
    if (shown.choices !== undefined) this.choices = shown.choices;
    return shown.lines;
  }

  private userNamed(name: string, language: string | undefined): TestUser {
    const key = name.toLowerCase();
    const known = this.users.get(key);
    if (known) return known;
    const user: TestUser = { key, id: 1001 + this.users.size, first_name: name, ...(language ? { language_code: language } : {}) };
    this.users.set(key, user);
    return user;
  }

  private privateChat(): TestChat {
    return { key: 'private', type: 'private', id: this.user.id, title: this.user.first_name, privacy: false };
  }
}
