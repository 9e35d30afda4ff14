// A rule's `send`, `forward` and `copy` at decide time: each message to another chat becomes an outbox effect (a
// sendmessage, forwardmessage or copymessage call, performed after the update's record is durable, in that
// chat's order); a `send` is rendered now with the values the reply sees, in the language of the user who caused it. A named chat the configuration does not declare
// sends nothing (the rules are checked against it before they load; see src/rules/check-references.ts).
import type { EffectAction, JsonValue } from './actions.js';
import type { Message } from '@grammyjs/types';
import type { CompiledRelay, CompiledSend } from './compile-sends.js';
import type { DecideContext } from './decide-types.js';
import { renderInlineKeyboard } from './keyboards.js';
import { translated } from './languages.js';
import { render, TOPIC_LINK_PENDING, type RenderValues } from './render.js';
import { topicLinkValue } from './handoff.js';

/** The chat a `send` goes to: a chat id as written, or the id the configuration gives its name (undefined when none does). */
export function sendTarget(to: string | number, context: DecideContext): number | string | undefined {
  return typeof to === 'number' ? to : context.chats?.get(to);
}

/** The outbox effects of a rule's `send`, in order. */
export function sendEffects(sends: readonly CompiledSend[], values: RenderValues, context: DecideContext, language: string | undefined): EffectAction[] {
  const effects: EffectAction[] = [];
  // The user's topic may be opening (a hand-off of this very decision): its link is filled in once it is open.
  const user = values.message.from;
  const topicLink = user ? topicLinkValue(values.vars?.user ?? {}, context, true) : undefined;
  const linked: RenderValues = topicLink === undefined ? values : { ...values, topicLink };
  for (const send of sends) {
    const chatId = sendTarget(send.to, context);
    if (chatId === undefined) continue;
    const params: { [key: string]: JsonValue } = { chat_id: chatId, text: render(translated(send.text, language), linked, send.parseMode) };
    if (send.parseMode) params.parse_mode = send.parseMode;
    if (send.buttons) params.reply_markup = renderInlineKeyboard(send.buttons, linked) as unknown as JsonValue;
    if (send.disableNotification) params.disable_notification = true;
    const payload = { method: 'sendmessage', params };
    if (user && JSON.stringify(params).includes(TOPIC_LINK_PENDING)) {
      // Performed in the user's turn, after the hand-off's opening of the topic, which it then links to.
      effects.push({
        type: 'effect',
        kind: 'handoff',
        payload: { op: 'send', customer: user.id, staff: context.handoff!.chatId, ...payload },
        orderKey: `chat:${user.id}`,
      });
    } else effects.push({ type: 'effect', kind: 'message', payload, orderKey: `chat:${chatId}` });
  }
  return effects;
}

/** The outbox effects of a rule's `forward` and `copy` of the user's message, in order. */
export function relayEffects(relays: readonly CompiledRelay[], message: Message, context: DecideContext): EffectAction[] {
  const effects: EffectAction[] = [];
  for (const relay of relays) {
    const chatId = sendTarget(relay.to, context);
    if (chatId === undefined) continue;
    const params = { chat_id: chatId, from_chat_id: message.chat.id, message_id: message.message_id };
    effects.push({ type: 'effect', kind: 'message', payload: { method: `${relay.how}message`, params }, orderKey: `chat:${chatId}` });
  }
  return effects;
}
