// The pure engine entry: one event, the rule set, the conversation state and a little context in; a
// decision (the rule that answered and the actions to perform) out. No I/O here: the caller performs the
// actions. Callers read the live rule set once per event and pass it in, so a reload in the middle never
// mixes two sets.
import type { Action, SendMessageAction } from './actions.js';
import type { BotEvent, CallbackQueryEvent, MessageEvent } from './events.js';
import { matchMessage } from './match.js';
import { pickTemplate, render } from './render.js';
import type { RuleSet } from './rule-set.js';
import type { ConversationState } from './state.js';

/** What decide needs besides the event, the rules and the state. */
export interface DecideContext {
  /** The bot's own username, to tell `/cmd@thisbot` from `/cmd@otherbot`. */
  readonly botUsername: string;
  /** Picks among a rule's alternative replies; returns a number in [0, 1) like Math.random (the default). */
  readonly random?: () => number;
  /** The current time in milliseconds since the epoch, like Date.now (the default); for time-based rules to come. */
  readonly now?: () => number;
}

/** The outcome for one event. */
export interface Decision {
  /** The rule that answered; null when none did. */
  readonly ruleId: string | null;
  /** What to do, in order; empty when there is nothing to do. */
  readonly actions: readonly Action[];
}

/** Nothing to do. */
const NOTHING: Decision = Object.freeze({ ruleId: null, actions: Object.freeze([]) });

/**
 * Decides what to do about one event: for a text message, the first matching rule in the global order
 * (found through the rule set's indexes) and its rendered reply; for a button press, an empty answer so the
 * button stops spinning; nothing for member events yet. Pure: the same inputs give the same decision.
 */
export function decide(event: BotEvent, ruleSet: RuleSet, state: ConversationState, context: DecideContext): Decision {
  // `state` is part of the contract already; matching does not read it until conversations do.
  switch (event.kind) {
    case 'message':
      return decideMessage(event, ruleSet, context);
    case 'callback_query':
      return decideCallbackQuery(event);
    case 'member_joined':
    case 'member_left':
      return NOTHING;
  }
}

function decideMessage(event: MessageEvent, ruleSet: RuleSet, context: DecideContext): Decision {
  const { message } = event;
  const match = matchMessage(message, ruleSet, context.botUsername);
  if (!match) return NOTHING;
  const { rule } = match;
  const text = render(
    pickTemplate(rule.replies, context.random ?? Math.random),
    { message, ...(match.args !== undefined ? { args: match.args } : {}), ...(match.captures ? { captures: match.captures } : {}) },
    rule.parseMode,
  );
  const send: SendMessageAction = {
    type: 'send_message',
    chatId: event.chat.id,
    text,
    ...(rule.parseMode ? { parseMode: rule.parseMode } : {}),
    ...(rule.replyToMessage ? { replyToMessageId: message.message_id } : {}),
    ...(rule.disableNotification ? { disableNotification: true } : {}),
  };
  return { ruleId: rule.id, actions: [send] };
}

/** The service shows a progress indicator on a pressed button until the bot answers, so every press is answered. */
function decideCallbackQuery(event: CallbackQueryEvent): Decision {
  return { ruleId: null, actions: [{ type: 'answer_callback', callbackQueryId: event.id }] };
}
