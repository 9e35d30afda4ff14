// What the embedding program (the `hearsay start` demo) tells the page beyond the chats: which bot the
// page opens on, and the problems of a bot's rules while the last good rules still answer.
import { EventEmitter } from 'node:events';

/** One rule problem as the page shows it: `where` is `file:line:column` (or the file alone). */
export interface RuleProblemNotice {
  where: string;
  message: string;
}

export interface RuleStatus {
  bot: string;
  /** Empty when the bot's rules are fine again. */
  problems: RuleProblemNotice[];
}

interface NoticeEvents {
  home: [string];
  rules: [RuleStatus];
}

export class PageNotices {
  private readonly events = new EventEmitter<NoticeEvents>();
  private homeBot: string | undefined;
  private readonly problems = new Map<string, RuleProblemNotice[]>();

  /** The chat the page opens on (a bot's username); BotMaker when unset. */
  get home(): string | undefined {
    return this.homeBot;
  }

  setHome(username: string): void {
    this.homeBot = username;
    this.events.emit('home', username);
  }

  /** Records the problems of `bot`'s rules; an empty list clears them. */
  setRuleProblems(bot: string, problems: RuleProblemNotice[]): void {
    if (problems.length === 0 && !this.problems.has(bot)) return;
    if (problems.length === 0) this.problems.delete(bot);
    else this.problems.set(bot, problems);
    this.events.emit('rules', { bot, problems });
  }

  /** Every bot whose rules have problems now. */
  ruleStatuses(): RuleStatus[] {
    return [...this.problems].map(([bot, problems]) => ({ bot, problems }));
  }

  onHome(listener: (username: string) => void): () => void {
    this.events.on('home', listener);
    return () => this.events.off('home', listener);
  }

  onRules(listener: (status: RuleStatus) => void): () => void {
    this.events.on('rules', listener);
    return () => this.events.off('rules', listener);
  }
}
