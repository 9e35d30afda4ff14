// Forum topics: a message written in a topic of a forum supergroup carries its `message_thread_id` (with
// `is_topic_message`); the bot answers in that topic, a rule's `topics:` condition names the topics it answers
// in, and {{message.topic}} shows the id. A message in General, or in a group without topics, has none.
import type { MaybeInaccessibleMessage, Message } from '@grammyjs/types';
import type { Action } from './actions.js';
import type { Decision } from './decide-types.js';
import type { BotEvent } from './events.js';

/** The topic a message was written in (its message_thread_id); undefined outside a forum topic. */
export function topicOf(message: Message | MaybeInaccessibleMessage | undefined): number | undefined {
  if (!message || message.date === 0) return undefined;
  const { is_topic_message: inTopic, message_thread_id: thread } = message as Message;
  return inTopic === true && thread !== undefined ? thread : undefined;
}

/** The topic an event happened in: a message's, or that of the message whose button was pressed. */
function topicOfEvent(event: BotEvent): number | undefined {
  if (event.kind === 'message' || event.kind === 'media' || event.kind === 'other_message' || event.kind === 'callback_query') return topicOf(event.message);
  return undefined;
}

/**
 * The decision with its messages to the event's own chat sent in the event's topic (a reply follows the message
 * it answers), including those decided once a backend call has answered.
 */
export function inEventTopic(event: BotEvent, decision: Decision): Decision {
  const topic = topicOfEvent(event);
  const chatId = event.chat?.id;
  if (topic === undefined || chatId === undefined) return decision;
  return intoTopic(decision, chatId, topic);
}

function intoTopic(decision: Decision, chatId: number, topic: number): Decision {
  const actions = decision.actions.map((action): Action =>
    action.type === 'send_message' && action.chatId === chatId && action.threadId === undefined ? { ...action, threadId: topic } : action,
  );
  const { call } = decision;
  return {
    ...decision,
    actions,
    ...(call ? { call: { ...call, resume: (result: Parameters<typeof call.resume>[0]) => intoTopic(call.resume(result), chatId, topic) } } : {}),
  };
}
