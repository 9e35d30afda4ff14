// One bot's pending updates: numbered in arrival order from a high random first id (as the service numbers a
// new bot's), removed when confirmed by an offset (polling) or after a 2xx answer (webhook). Wakes the single
// long poll allowed at a time and tells the webhook worker. Update types outside the bot's allowed_updates
// are not queued at all, as on the real service.
import { randomInt } from 'node:crypto';
import type { CallbackQuery, ChatJoinRequest, ChatMemberUpdated, Message, Update } from '@grammyjs/types';

export type PollOutcome = 'ready' | 'timeout' | 'conflict' | 'cancelled';

/** The update kinds the sandbox produces. */
export type UpdateKind = 'message' | 'callback_query' | 'chat_member' | 'my_chat_member' | 'chat_join_request';

/** What an empty allowed_updates list means: everything but these (a bot gets them only when it lists them). */
const OFF_BY_DEFAULT = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

// The real service treats an offset more than this far beyond the newest update as invalid and answers from the oldest.
const FUTURE_OFFSET_SLACK = 10;

interface Waiter {
  finish(outcome: PollOutcome): void;
}

const KNOWN_UPDATE_TYPES = new Set([
  'message',
  'edited_message',
  'channel_post',
  'edited_channel_post',
  'business_connection',
  'business_message',
  'edited_business_message',
  'deleted_business_messages',
  'message_reaction',
  'message_reaction_count',
  'inline_query',
  'chosen_inline_result',
  'callback_query',
  'shipping_query',
  'pre_checkout_query',
  'purchased_paid_media',
  'poll',
  'poll_answer',
  'my_chat_member',
  'chat_member',
  'chat_join_request',
  'chat_boost',
  'removed_chat_boost',
]);

/** A new bot's first update id: high and random, as the service's are (a bot that assumes 1 breaks there). */
function firstUpdateId(): number {
  return 100_000_000 + randomInt(800_000_000);
}

export class UpdateQueue {
  private pending: Update[] = [];
  private nextUpdateId = firstUpdateId();
  private waiter: Waiter | undefined;
  private readonly listeners = new Set<(update: Update) => void>();
  private allowed: ReadonlySet<string> | undefined;
  /** Until when a further 409 to a poller is held back (see get-updates). */
  nextConflictAt = 0;

  /** `view` turns a payload into what this bot sees of it (its own file ids); the identity by default. */
  constructor(private readonly view: <T>(payload: T) => T = (payload) => payload) {}

  /** Queues a message update; returns it, or undefined when allowed_updates excludes messages. */
  push(message: Message): Update | undefined {
    return this.pushUpdate('message', message);
  }

  /** Queues a callback_query update; returns it, or undefined when allowed_updates excludes them. */
  pushCallbackQuery(query: CallbackQuery): Update | undefined {
    return this.pushUpdate('callback_query', query);
  }

  /** Queues a chat_member update; returns it, or undefined unless allowed_updates names chat_member. */
  pushChatMember(change: ChatMemberUpdated): Update | undefined {
    return this.pushUpdate('chat_member', change);
  }

  /** Queues a my_chat_member update (the bot's own membership changed); returns it, or undefined when not allowed. */
  pushMyChatMember(change: ChatMemberUpdated): Update | undefined {
    return this.pushUpdate('my_chat_member', change);
  }

  /** Queues a chat_join_request update (a user asked to join a group the bot administers); undefined when not allowed. */
  pushChatJoinRequest(request: ChatJoinRequest): Update | undefined {
    return this.pushUpdate('chat_join_request', request);
  }

  /**
   * allowed_updates as the real service applies it: a list with known names replaces the setting; an empty
   * list restores the default; anything else (unknown names only, malformed) leaves the setting unchanged.
   */
  setAllowedUpdates(names: readonly string[]): void {
    if (names.length === 0) {
      this.allowed = undefined;
      return;
    }
    const known = names.map((name) => name.toLowerCase()).filter((name) => KNOWN_UPDATE_TYPES.has(name));
    if (known.length > 0) this.allowed = new Set(known);
  }

  /** The allowed_updates in force, or undefined for the default. */
  get allowedUpdates(): string[] | undefined {
    return this.allowed ? [...this.allowed] : undefined;
  }

  private accepts(kind: UpdateKind): boolean {
    return this.allowed ? this.allowed.has(kind) : !OFF_BY_DEFAULT.has(kind);
  }

  private pushUpdate(kind: UpdateKind, payload: Message | CallbackQuery | ChatMemberUpdated | ChatJoinRequest): Update | undefined {
    if (!this.accepts(kind)) return undefined;
    const update = { update_id: this.nextUpdateId++, [kind]: this.view(payload) } as unknown as Update;
    this.pending.push(update);
    this.waiter?.finish('ready');
    for (const listener of this.listeners) listener(update);
    return update;
  }

  /** Called with every update queued (the webhook worker listens, and the store tells its subscribers). */
  onPush(listener: (update: Update) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.pending.length;
  }

  /** The oldest pending updates, in order. */
  list(limit = Infinity): Update[] {
    return this.pending.slice(0, limit);
  }

  /**
   * getUpdates' offset: a positive offset confirms every update below it (a lower, stale one confirms
   * nothing new); a negative one keeps only the last -offset updates and forgets the rest. An offset far
   * beyond the newest update is ignored, as the real service does, rather than dropping what is pending.
   */
  confirm(offset: number): void {
    if (offset > this.nextUpdateId + FUTURE_OFFSET_SLACK) return;
    if (offset > 0) this.pending = this.pending.filter((update) => update.update_id >= offset);
    else if (offset < 0) this.pending = this.pending.slice(offset);
  }

  /** True while a long poll is waiting. */
  get polling(): boolean {
    return this.waiter !== undefined;
  }

  remove(updateId: number): void {
    this.pending = this.pending.filter((update) => update.update_id !== updateId);
  }

  /**
   * Starts the update id sequence over at `next`, as a restarted self-hosted Bot API server does, or the real
   * service after a quiet week (it then picks the next id at random). For tests of bots that must not go deaf.
   */
  restartIds(next = 1): void {
    this.nextUpdateId = next;
  }

  dropAll(): void {
    this.pending = [];
  }

  /**
   * Waits until an update is pending, the time is up, a newer poll takes over ('conflict'), or `cancel`
   * is called (the poller went away). Only one waiter at a time, as the service allows one poller.
   */
  wait(timeoutMs: number): { outcome: Promise<PollOutcome>; cancel(): void } {
    this.waiter?.finish('conflict');
    let finish!: (outcome: PollOutcome) => void;
    const outcome = new Promise<PollOutcome>((resolve) => {
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      const waiter: Waiter = {
        finish: (result) => {
          clearTimeout(timer);
          if (this.waiter === waiter) this.waiter = undefined;
          resolve(result);
        },
      };
      finish = waiter.finish;
      this.waiter = waiter;
    });
    return { outcome, cancel: () => finish('cancelled') };
  }

  /** Ends a waiting poll with 409 without starting a new one (e.g. when a webhook is set). */
  endWaitingPoll(): void {
    this.waiter?.finish('conflict');
  }

  /** Ends a waiting poll quietly (the sandbox is closing). */
  cancelWaitingPoll(): void {
    this.waiter?.finish('cancelled');
  }
}
