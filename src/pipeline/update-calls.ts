// The backend calls a decision waits for, made while its update is handled — after the intent (`ledger.begin`) and
// before the replies: each pending call is made, and the engine continues the decision with its result (a second
// pure step), until no call is pending. Meanwhile the chat's slot is lent to other chats, and a user who waits more
// than a second sees "typing…".
import type { Update } from '../api/types.js';
import type { ChatActionAction } from '../engine/actions.js';
import { continueDecision, MAX_CALLS_PER_UPDATE, type BackendResult } from '../engine/backend-calls.js';
import type { Decision } from '../engine/decide.js';
import type { BackendCaller } from './backend-port.js';
import type { PerformActions } from './pipeline-options.js';
import type { ChatSequencer } from './ports.js';

/** After this long without an answer the user sees "typing…", renewed while the wait lasts (the service shows it ~5 s). */
const TYPING_AFTER_MS = 1000;
const TYPING_EVERY_MS = 4500;

/** What making an update's calls needs. */
export interface UpdateCallsContext {
  readonly update: Update;
  /** The chat that waits (where "typing…" shows); null when the event has none. */
  readonly chatId: number | null;
  readonly backends: BackendCaller | undefined;
  readonly sequencer: ChatSequencer;
  readonly perform: PerformActions;
  readonly signal: AbortSignal;
}

/** What a call comes to when there is no backend to ask (none configured where the rules run). */
const NO_BACKENDS: BackendResult = { status: null, failure: 'not_declared' };

/** The decision with every pending call made and continued; an endless chain is cut at {@link MAX_CALLS_PER_UPDATE}. */
export async function completeCalls(decision: Decision, context: UpdateCallsContext): Promise<Decision> {
  const { backends, sequencer, update, signal } = context;
  const typing = showTypingWhileWaiting(context);
  let current = decision;
  try {
    for (let index = 0; current.call && index < MAX_CALLS_PER_UPDATE; index++) {
      const request = current.call.request;
      const asked = backends ? backends.call(request, { update, index }, signal) : Promise.resolve(NO_BACKENDS);
      const result = sequencer.waitAside ? await sequencer.waitAside(asked) : await asked;
      current = continueDecision(current, result);
    }
  } finally {
    typing.stop();
  }
  if (!current.call) return current;
  const { call: _dropped, ...rest } = current;
  return rest;
}

/** "typing…" in the chat after a second of waiting, renewed until `stop`. */
function showTypingWhileWaiting({ chatId, perform, update, signal }: UpdateCallsContext): { stop(): void } {
  if (chatId === null) return { stop: () => undefined };
  const action: ChatActionAction = { type: 'chat_action', chatId, action: 'typing' };
  let timer: NodeJS.Timeout;
  const show = () => {
    // Only a courtesy: a failure (or a refused token, which the replies meet next) changes nothing here.
    perform([action], { update, ruleId: null }, signal).catch(() => undefined);
    timer = setTimeout(show, TYPING_EVERY_MS);
  };
  timer = setTimeout(show, TYPING_AFTER_MS);
  return { stop: () => clearTimeout(timer) };
}
