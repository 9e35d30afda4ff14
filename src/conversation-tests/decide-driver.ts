// A bot under test driven by the pure engine alone: decide() on each update with the state kept in memory
// between steps, its actions performed on the Bot API double, its state changes committed as a store
// would, and flow timeouts raised when the frozen clock passes their deadline.
import type { Update } from '@grammyjs/types';
import type { Action } from '../engine/actions.js';
import { decide } from '../engine/decide.js';
import { continueDecision, type BackendRequest } from '../engine/backend-calls.js';
import { toEvent, type BotEvent } from '../engine/events.js';
import { flowDeadline } from '../engine/flows.js';
import { applyStateChanges, type ConversationState, type FlowPosition, type StateValue } from '../engine/state.js';
import type { BotDriver, DriverOptions } from './driver.js';
import { CannedBackends } from './canned-backends.js';
import type { BotApi } from '../api/types.js';
import { MemoryMediaFileIds } from '../delivery/media-file-ids.js';
import { MediaSender } from '../delivery/media-sender.js';
import { createLogger } from '../log/logger.js';

type Variables = Readonly<Record<string, StateValue>>;

/** Changes to other members' variables (someone the event's user added to the group), each to that member's. */
function commitOtherMembers(members: Map<string, Variables>, chatId: number, actions: readonly Action[]): void {
  for (const action of actions) {
    if (action.type !== 'set_state' || action.userId === undefined) continue;
    const { userId: other, ...change } = action;
    const key = `${chatId}:${other}`;
    members.set(key, applyStateChanges({ user: {}, chat: {}, member: members.get(key) ?? {} }, [change]).member ?? {});
  }
}

/** The state kept between steps, as a store keeps it: by user, chat, member (chat:user) and flow (chat:user). */
interface Stores {
  readonly users: Map<number, Variables>;
  readonly chats: Map<number, Variables>;
  readonly members: Map<string, Variables>;
  readonly flows: Map<string, { chatId: number; userId: number; position: FlowPosition }>;
}

function loadState(stores: Stores, chatId: number | null, userId: number | null): ConversationState {
  const both = chatId !== null && userId !== null;
  return {
    user: (userId !== null && stores.users.get(userId)) || {},
    chat: (chatId !== null && stores.chats.get(chatId)) || {},
    member: (both && stores.members.get(`${chatId}:${userId}`)) || {},
    flow: both ? (stores.flows.get(`${chatId}:${userId}`)?.position ?? null) : null,
  };
}

/** Keeps the state after a decision (`after`), and the variables its actions set for other members. */
function commitState(stores: Stores, chatId: number | null, userId: number | null, after: ConversationState, actions: readonly Action[]): void {
  if (userId !== null) stores.users.set(userId, after.user);
  if (chatId !== null) stores.chats.set(chatId, after.chat);
  if (chatId === null || userId === null) return;
  stores.members.set(`${chatId}:${userId}`, after.member ?? {});
  commitOtherMembers(stores.members, chatId, actions);
  if (after.flow) stores.flows.set(`${chatId}:${userId}`, { chatId, userId, position: after.flow });
  else stores.flows.delete(`${chatId}:${userId}`);
  // A flow in another chat of the user: a join request's questions, asked in their private chat.
  for (const action of actions) {
    if (action.type !== 'set_flow' || action.chatId === undefined) continue;
    const key = `${action.chatId}:${userId}`;
    if (action.flow) stores.flows.set(key, { chatId: action.chatId, userId, position: action.flow });
    else stores.flows.delete(key);
  }
}

export function createDecideDriver(options: DriverOptions): BotDriver {
  const backends = options.backends ?? new CannedBackends(new Map());
  const stores: Stores = { users: new Map(), chats: new Map(), members: new Map(), flows: new Map() };
  const { flows } = stores;
  const context = { botUsername: options.botUsername, random: options.random, now: () => options.clock.now };
  /** What the service refused since the runner last asked (a moderation call without the right); media goes out as in the service. */
  const [log, media]: [string[], MediaSender] = [[], mediaSenderOver(options.api)];
  const load = (chatId: number | null, userId: number | null): ConversationState => loadState(stores, chatId, userId);
  const commit = (chatId: number | null, userId: number | null, before: ConversationState, actions: readonly Action[]) =>
    commitState(stores, chatId, userId, applyStateChanges(before, actions), actions);

  const run = async (event: BotEvent) => {
    const chatId = event.chat?.id ?? null;
    const userId = event.from?.id ?? null;
    const state = load(chatId, userId);
    let decision = decide(event, options.ruleSet, state, context);
    // Calls the reply waits for, answered by the canned backends, each continued by the engine.
    while (decision.call) decision = continueDecision(decision, await backends.call(decision.call.request));
    const stepsAsked = decision.actions.flatMap((a) => (a.type === 'set_flow' && a.flow ? [`${a.flow.flowId}#${a.flow.stepId}`] : []));
    options.onDecision({ ruleId: decision.ruleId, stepsAsked, ...(decision.suggested ? { suggested: decision.suggested } : {}) });
    // The message the last reply became, for a moderation call that pins it.
    let replyId: number | undefined;
    for (const action of decision.actions) replyId = (await perform(action, options, media, replyId, log)) ?? replyId;
    commit(chatId, userId, state, decision.actions);
    // Notifies go out after the commit, as the outbox sends them.
    for (const action of decision.actions)
      if (action.type === 'effect' && action.kind === 'backend') backends.notify(action.payload as unknown as BackendRequest);
  };

  // The service messages what the bot did caused (a member it let in), handed in as the service would.
  const deliverServiceMessages = async () => {
    for (let update = options.api.serviceUpdates.shift(); update; update = options.api.serviceUpdates.shift()) {
      const event = toEvent(update);
      if (event) await run(event);
    }
  };

  return {
    async handle(update: Update) {
      const event = toEvent(update);
      if (event) await run(event);
      await deliverServiceMessages();
    },
    async advanceTo(now: number) {
      for (;;) {
        const due = [...flows.values()]
          .map((entry) => ({ ...entry, at: flowDeadline(entry.position, options.ruleSet) }))
          .filter((entry): entry is typeof entry & { at: number } => entry.at !== null && entry.at <= now)
          .sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        options.clock.now = Math.max(options.clock.now, due.at);
        await run({ kind: 'flow_timeout', chat: { id: due.chatId }, from: { id: due.userId } });
        await deliverServiceMessages();
      }
      options.clock.now = now;
    },
    async state(chatId: number, userId: number) {
      return load(chatId, userId);
    },
    takeLog() {
      return log.splice(0);
    },
    async close() {},
  };
}

/** Media goes through a media sender, as in the service: the double records what it was asked to send. */
function mediaSenderOver(api: DriverOptions['api']): MediaSender {
  return new MediaSender({ api: api as unknown as BotApi, fileIds: new MemoryMediaFileIds(), logger: createLogger({ level: 'silent' }) });
}

/** Performs one action on the double as the service's perform step does on the real Bot API. */
async function perform(action: Action, options: DriverOptions, media: MediaSender, replyId: number | undefined, log: string[]): Promise<number | void> {
  const api = options.api;
  switch (action.type) {
    case 'send_media':
      return (await media.send(action, null)).messageId;
    case 'send_message': {
      const sent = await api.sendMessage({
        chat_id: action.chatId,
        text: action.text,
        ...(action.parseMode ? { parse_mode: action.parseMode } : {}),
        ...(action.disableNotification ? { disable_notification: true } : {}),
        ...(action.replyToMessageId !== undefined ? { reply_parameters: { message_id: action.replyToMessageId } } : {}),
        ...(action.replyMarkup ? { reply_markup: action.replyMarkup } : {}),
      });
      return sent.message_id;
    }
    case 'moderate':
      // As the service's perform step: a refusal (a missing right) is the bot's log, and the rule goes on.
      if (action.pinsReply && replyId === undefined) return;
      await api
        .call(action.method, { chat_id: action.chatId, ...action.params, ...(action.pinsReply ? { message_id: replyId! } : {}) })
        .catch((error: unknown) => log.push(`${action.method} was refused: ${error instanceof Error ? error.message : String(error)}`));
      return;
    case 'edit_message_text':
      await api.editMessageText({
        chat_id: action.chatId,
        message_id: action.messageId,
        text: action.text,
        ...(action.parseMode ? { parse_mode: action.parseMode } : {}),
        ...(action.replyMarkup ? { reply_markup: action.replyMarkup } : {}),
      });
      return;
    case 'answer_callback':
      await api.answerCallbackQuery({
        callback_query_id: action.callbackQueryId,
        ...(action.text !== undefined ? { text: action.text } : {}),
        ...(action.showAlert ? { show_alert: true } : {}),
      });
      return;
    case 'set_state':
    case 'set_flow':
      return; // committed after the actions, with the update
  }
}
