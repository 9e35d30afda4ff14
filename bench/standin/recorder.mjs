// What the stand-in observed during one run: when each update was handed to the bot
// and every reply that arrived (hrtime, chat, text), for the report and the checks.

export class RunRecorder {
  constructor(updateCount) {
    /** handedAt[i]: hrtime (ns, bigint) when update i was first handed to the bot; 0n = never. */
    this.handedAt = new Array(updateCount).fill(0n);
    this.handedCount = 0;
    /** hrtime (ns) of the bot's first getupdates or setwebhook: when it is ready for updates. */
    this.readyAt = 0n;
    /** Replies in arrival order: { chatId, text, at } */
    this.replies = [];
    this.webhookFailures = 0;
    this.unknownMethods = new Map();
    this.listeners = new Set();
  }

  handed(index, at) {
    if (this.handedAt[index] === 0n) {
      this.handedAt[index] = at;
      this.handedCount += 1;
    }
  }

  ready(at) {
    if (this.readyAt === 0n) this.readyAt = at;
  }

  reply(chatId, text, at) {
    this.replies.push({ chatId, text, at });
    for (const listener of this.listeners) listener(this.replies.length);
  }

  unknownMethod(name) {
    this.unknownMethods.set(name, (this.unknownMethods.get(name) ?? 0) + 1);
  }

  onReply(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
