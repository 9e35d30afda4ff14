// What the embedding program (the `hearsay start` demo) tells the page beyond the chats: which bot the page
// opens on. (A bot's rule problems come from the hearsay process running it, see hearsay-reports.ts.)
import { EventEmitter } from 'node:events';

export type { RuleProblemNotice, RuleStatus } from '../hearsay-reports.js';

export class PageNotices {
  private readonly events = new EventEmitter<{ home: [string] }>();
  private homeBot: string | undefined;

  /** The chat the page opens on (a bot's username); BotMaker when unset. */
  get home(): string | undefined {
    return this.homeBot;
  }

  setHome(username: string): void {
    this.homeBot = username;
    this.events.emit('home', username);
  }

  onHome(listener: (username: string) => void): () => void {
    this.events.on('home', listener);
    return () => this.events.off('home', listener);
  }
}
