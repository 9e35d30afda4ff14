// BotMaker, the bot-creation assistant: /newbot → name → username → token; /token → which bot → new token
// (the old one revoked at once); /setprivacy → which bot → Enable or Disable (privacy mode in groups);
// /mybots; /cancel; /help and /start. Every wrong step says what to send; a choice comes with a keyboard.
// Unlike the real assistant, a new bot's answer also says how to run it with hearsay against this sandbox:
// the token and the two commands as code blocks (copied whole on the page, never wrapped mid-token), with
// paths relative to the folder the sandbox was started in.
import type { MessageEntity } from '@grammyjs/types';
import { parseHtml } from '../markup/html.js';
import { storePeerMessage } from './chat-messages.js';
import { ASSISTANT, type SandboxStore, type SandboxUser } from './store.js';

/**
 * How to run hearsay, typed in the sandbox's working directory (no folder) or in `folder` below it (after
 * `cd folder`), e.g. `node dist/hearsay.cjs` and `node ../dist/hearsay.cjs`; a plain text is used as it is.
 */
export type HearsayCommand = string | ((folder?: string) => string);

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

type Step =
  | { kind: 'idle' }
  | { kind: 'newbot-name' }
  | { kind: 'newbot-username'; name: string }
  | { kind: 'token-which' }
  | { kind: 'privacy-which' }
  | { kind: 'privacy-mode'; username: string };

/** An answer: a plain text, or one with its entities (code blocks) or a reply keyboard of choices (one per row). */
type Answer = string | { text: string; entities?: MessageEntity[]; choices?: string[] };

const HELP = [
  'I can help you create and manage bots for this sandbox.',
  '',
  '/newbot - create a new bot',
  '/token - generate a new token for one of your bots (the old one stops working)',
  '/setprivacy - change what one of your bots receives in groups (privacy mode)',
  '/mybots - list your bots',
  '/cancel - stop the current operation',
  '/help - show this list',
].join('\n');

const USERNAME_CHARS = /^[A-Za-z][A-Za-z0-9_]*$/;
const MAX_NAME_LENGTH = 64;

export interface AssistantOptions {
  /** How the user starts hearsay, for the run hint: `hearsay` unless told. */
  hearsayCommand?: HearsayCommand;
}

export class Assistant {
  private readonly steps = new Map<number, Step>();
  private readonly hearsayCommand: (folder?: string) => string;
  /** The sandbox's address as the user reached it, for the run hint. */
  private baseUrl = 'http://127.0.0.1:8081';

  constructor(
    private readonly store: SandboxStore,
    options: AssistantOptions = {},
  ) {
    const command = options.hearsayCommand ?? 'hearsay';
    this.hearsayCommand = typeof command === 'string' ? () => command : command;
  }

  /** Handles one message the user sent to the assistant (through `baseUrl`) and stores its reply. */
  handle(user: SandboxUser, text: string, baseUrl?: string): void {
    if (baseUrl !== undefined) this.baseUrl = baseUrl;
    const answer = this.answer(user, text.trim());
    if (typeof answer === 'string') {
      storePeerMessage(this.store, user, ASSISTANT, answer);
      return;
    }
    const keyboard = answer.choices && { keyboard: answer.choices.map((choice) => [{ text: choice }]), resize_keyboard: true, one_time_keyboard: true };
    storePeerMessage(this.store, user, ASSISTANT, answer.text, undefined, answer.entities, keyboard && { kind: 'keyboard', markup: keyboard });
  }

  private answer(user: SandboxUser, text: string): Answer {
    const step = this.steps.get(user.id) ?? { kind: 'idle' };
    const command = /^\/([A-Za-z0-9_]+)(?:@BotMaker)?$/i.exec(text)?.[1]?.toLowerCase();
    if (command !== undefined) return this.command(user, command, step);
    switch (step.kind) {
      case 'newbot-name':
        return this.chooseName(user, text);
      case 'newbot-username':
        return this.chooseUsername(user, step.name, text);
      case 'token-which':
        return this.chooseBotForToken(user, text);
      case 'privacy-which':
        return this.chooseBotForPrivacy(user, text);
      case 'privacy-mode':
        return this.setPrivacy(user, step.username, text);
      default:
        return 'I did not understand that. Send /newbot to create a bot, or /help for the list of commands.';
    }
  }

  private command(user: SandboxUser, command: string, step: Step): Answer {
    switch (command) {
      case 'start':
      case 'help':
        this.steps.delete(user.id);
        return HELP;
      case 'cancel':
        this.steps.delete(user.id);
        return step.kind === 'idle'
          ? 'There is nothing to cancel. Send /newbot to create a bot, or /help for the list of commands.'
          : `The command /${step.kind.split('-')[0]!.replace('privacy', 'setprivacy')} has been cancelled. Anything else I can do for you?`;
      case 'newbot':
        this.steps.set(user.id, { kind: 'newbot-name' });
        return 'Alright, a new bot. How are we going to call it? Please send the name for your bot (it is shown in chats).';
      case 'mybots':
        this.steps.delete(user.id);
        return this.listBots(user);
      case 'token': {
        const bots = this.store.botsOf(user.id);
        if (bots.length === 0) return 'You have no bots yet. Send /newbot to create one.';
        this.steps.set(user.id, { kind: 'token-which' });
        return `Choose a bot to generate a new token for. Send its username: ${bots.map((bot) => `@${bot.username}`).join(', ')}`;
      }
      case 'setprivacy': {
        const bots = this.store.botsOf(user.id);
        if (bots.length === 0) return 'You have no bots yet. Send /newbot to create one.';
        this.steps.set(user.id, { kind: 'privacy-which' });
        return { text: 'Choose a bot to change its group messages settings.', choices: bots.map((bot) => `@${bot.username}`) };
      }
      default:
        return `Unknown command /${command}. Send /help for the list of commands.`;
    }
  }

  private chooseName(user: SandboxUser, name: string): string {
    if (name.length === 0) return 'The name cannot be empty. Please send the name for your bot, or /cancel.';
    if (name.length > MAX_NAME_LENGTH) {
      return `Sorry, the name is too long (at most ${MAX_NAME_LENGTH} characters). Please send a shorter name, or /cancel.`;
    }
    this.steps.set(user.id, { kind: 'newbot-username', name });
    return "Good. Now let's choose a username for your bot. It must end in `bot` and be 5 to 32 characters of letters, digits and underscores. Like this, for example: TetrisBot or tetris_bot.";
  }

  private chooseUsername(user: SandboxUser, name: string, text: string): string | { text: string; entities: MessageEntity[] } {
    const username = text.replace(/^@/, '');
    if (!/bot$/i.test(username)) {
      return "Sorry, the username must end in 'bot'. E.g. 'Tetris_bot' or 'Tetrisbot'. Please send another username, or /cancel.";
    }
    if (username.length < 5 || username.length > 32 || !USERNAME_CHARS.test(username)) {
      return 'Sorry, this username is invalid: it must be 5 to 32 characters, start with a letter and use only letters, digits and underscores. Please send another username, or /cancel.';
    }
    if (this.store.isUsernameTaken(username)) {
      return 'Sorry, this username is already taken. Please try something different, or /cancel.';
    }
    const bot = this.store.createBot(user.id, name, username);
    this.steps.delete(user.id);
    const { text: plain, entities } = parseHtml(
      [
        `Done! Congratulations on your new bot @${escapeHtml(bot.username)}. Users can now find it by its username.`,
        '',
        'Use this token to access the HTTP API:',
        `<pre>${escapeHtml(bot.token)}</pre>`,
        'Keep your token secret and store it safely: anyone who has it can control your bot.',
        '',
        ...this.runHint(bot.token, bot.username),
      ].join('\n'),
    );
    return { text: plain, entities };
  }

  /**
   * Sandbox only: the commands that make hearsay answer the new bot from a rules folder named after it, as two
   * blocks so that an `init` refused (the folder is there from an earlier run) never skips the `cd`.
   */
  private runHint(token: string, username: string): string[] {
    const folder = username;
    const run = (command: string) => `<pre>${escapeHtml(command)}</pre>`;
    return [
      'Run it with hearsay against this sandbox, in another terminal, from the folder you started the sandbox in:',
      run(`${this.hearsayCommand()} init ${folder}`),
      run(`cd ${folder} && BOT_TOKEN=${token} BASE_URL=${this.baseUrl} ${this.hearsayCommand(folder)} start`),
      `Then send it /start here. Edit ${folder}/rules/ and its answers change at once.`,
    ];
  }

  private chooseBotForToken(user: SandboxUser, text: string): string | { text: string; entities: MessageEntity[] } {
    const bots = this.store.botsOf(user.id);
    const wanted = text.replace(/^@/, '').toLowerCase();
    const bot = bots.find((candidate) => candidate.username.toLowerCase() === wanted);
    if (!bot) {
      return `That is not one of your bots. Send the username of one of them: ${bots.map((b) => `@${b.username}`).join(', ')}, or /cancel.`;
    }
    const token = this.store.regenerateToken(bot);
    this.steps.delete(user.id);
    return parseHtml(
      [
        `Here is the new token for @${escapeHtml(bot.username)}. The old token no longer works.`,
        '',
        `<pre>${escapeHtml(token)}</pre>`,
        'Keep your token secret and store it safely: anyone who has it can control your bot.',
      ].join('\n'),
    );
  }

  private chooseBotForPrivacy(user: SandboxUser, text: string): Answer {
    const bots = this.store.botsOf(user.id);
    const wanted = text.replace(/^@/, '').toLowerCase();
    const bot = bots.find((candidate) => candidate.username.toLowerCase() === wanted);
    if (!bot) return { text: 'Invalid bot selected. Send the username of one of your bots, or /cancel.', choices: bots.map((b) => `@${b.username}`) };
    this.steps.set(user.id, { kind: 'privacy-mode', username: bot.username });
    const text2 = [
      "'Enable' - your bot will only receive messages that start with the '/' symbol, mention the bot by username, or reply to its messages.",
      "'Disable' - your bot will receive all messages that people send to groups.",
      `Current status is: ${bot.privacy ? 'ENABLED' : 'DISABLED'}`,
    ].join('\n');
    return { text: text2, choices: ['Enable', 'Disable'] };
  }

  private setPrivacy(user: SandboxUser, username: string, text: string): Answer {
    const choice = text.toLowerCase();
    if (choice !== 'enable' && choice !== 'disable') return { text: "Please choose 'Enable' or 'Disable', or send /cancel.", choices: ['Enable', 'Disable'] };
    const bot = this.store.botsOf(user.id).find((candidate) => candidate.username === username);
    this.steps.delete(user.id);
    if (!bot) return 'That bot is no longer yours. Send /setprivacy to start again.';
    bot.privacy = choice === 'enable';
    return `Success! The new status is: ${bot.privacy ? 'ENABLED' : 'DISABLED'}. /help`;
  }

  private listBots(user: SandboxUser): string {
    const bots = this.store.botsOf(user.id);
    if (bots.length === 0) return 'You have no bots yet. Send /newbot to create one.';
    return `Your bots:\n${bots.map((bot) => `@${bot.username} - ${bot.name}`).join('\n')}`;
  }
}
