// A rule's `send`: messages to other chats become outbox effects after the reply — rendered with the same
// values as the reply, in the user's language, to a named chat of the configuration or a chat id — and the
// rules are checked against the chats the configuration declares, at the `to` that names a missing one.
import { describe, expect, it } from 'vitest';
import { compileRules, compileRulesCollecting } from '../../src/engine/compile.js';
import { decide } from '../../src/engine/decide.js';
import type { EffectAction } from '../../src/engine/actions.js';
import { EMPTY_STATE } from '../../src/engine/state.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { message, messageEvent } from './messages.js';

const complaint: Rule = {
  id: 'complaint',
  keywords: ['complaint'],
  reply: 'Sorry to hear that! A colleague will look into it.',
  send: { to: 'staff', text: 'Complaint from {{user.first_name}} (id {{user.id}}): {{text}}' },
};
const context = { botUsername: 'shop_bot', chats: new Map<string, number | string>([['staff', -1001234567890]]) };

describe('send: messages to other chats', () => {
  it('answers the user and adds one message effect per send, to the named chat, in its order key, after the reply', () => {
    const decision = decide(messageEvent(message('I have a complaint', { firstName: 'Ada' })), compileRules([complaint]), EMPTY_STATE, context);
    expect(decision.actions.map((a) => a.type)).toEqual(['send_message', 'effect']);
    expect(decision.actions[1]).toEqual({
      type: 'effect',
      kind: 'message',
      payload: { method: 'sendmessage', params: { chat_id: -1001234567890, text: 'Complaint from Ada (id 42): I have a complaint' } },
      orderKey: 'chat:-1001234567890',
    } satisfies EffectAction);
  });

  it('takes a chat id as it is, a list of sends in order, its own parse_mode and buttons, with inserted values escaped', () => {
    const rule: Rule = {
      ...complaint,
      send: [
        { to: -5, text: '<b>New</b> from {{user.first_name}}', parse_mode: 'HTML', buttons: [[{ text: 'Take it', data: 'take' }]], disable_notification: true },
        { to: 'staff', text: 'second' },
      ],
    };
    const decision = decide(messageEvent(message('complaint', { firstName: 'A<b>' })), compileRules([rule]), EMPTY_STATE, context);
    const effects = decision.actions.filter((a): a is EffectAction => a.type === 'effect');
    expect(effects.map((e) => e.payload)).toEqual([
      {
        method: 'sendmessage',
        params: {
          chat_id: -5,
          text: '<b>New</b> from A&lt;b&gt;',
          parse_mode: 'HTML',
          reply_markup: { inline_keyboard: [[{ text: 'Take it', callback_data: 'take' }]] },
          disable_notification: true,
        },
      },
      { method: 'sendmessage', params: { chat_id: -1001234567890, text: 'second' } },
    ]);
    expect(effects.map((e) => e.orderKey)).toEqual(['chat:-5', 'chat:-1001234567890']);
  });

  it('sends nothing to a name the configuration does not give (and still answers)', () => {
    const decision = decide(messageEvent(message('complaint')), compileRules([complaint]), EMPTY_STATE, { botUsername: 'shop_bot' });
    expect(decision.actions.map((a) => a.type)).toEqual(['send_message']);
  });

  it('is checked against the declared chats when they are known, at the `to` that names a missing one', () => {
    const known = { chats: new Set(['staff']), configFile: 'hearsay.yaml' };
    expect(compileRulesCollecting([complaint], undefined, [], [], undefined, { environment: known }).problems).toEqual([]);
    const missing = compileRulesCollecting(
      [
        {
          ...complaint,
          send: [
            { to: 'staff', text: 'x' },
            { to: 'sales', text: 'y' },
          ],
        },
      ],
      undefined,
      [],
      [],
      undefined,
      {
        environment: known,
      },
    );
    expect(missing.ruleSet).toBeUndefined();
    expect(missing.problems.map((p) => p.message)).toEqual([
      "chat 'sales' is not declared in hearsay.yaml: add it under chats:, e.g. chats: { sales: -1001234567890 } (declared: staff)",
    ]);
  });

  it('reports a broken template or markup in a send like one in a reply', () => {
    const broken = compileRulesCollecting([{ ...complaint, send: { to: 'staff', text: '<b>open', parse_mode: 'HTML' } }]);
    expect(broken.problems.map((p) => p.message).join('\n')).toMatch(
      /the service would refuse the message rule 'complaint' sends to staff \(parse_mode HTML\)/,
    );
  });

  it('forwards and copies the user message itself, after the send, each to its chat in its order key', () => {
    const rule: Rule = { ...complaint, forward: 'staff', copy: [-5, 'staff'] };
    const decision = decide(messageEvent(message('I have a complaint', { firstName: 'Ada' })), compileRules([rule]), EMPTY_STATE, context);
    const effects = decision.actions.filter((a): a is EffectAction => a.type === 'effect');
    expect(effects.map((e) => [e.payload, e.orderKey])).toEqual([
      [{ method: 'sendmessage', params: { chat_id: -1001234567890, text: 'Complaint from Ada (id 42): I have a complaint' } }, 'chat:-1001234567890'],
      [{ method: 'forwardmessage', params: { chat_id: -1001234567890, from_chat_id: 42, message_id: 7 } }, 'chat:-1001234567890'],
      [{ method: 'copymessage', params: { chat_id: -5, from_chat_id: 42, message_id: 7 } }, 'chat:-5'],
      [{ method: 'copymessage', params: { chat_id: -1001234567890, from_chat_id: 42, message_id: 7 } }, 'chat:-1001234567890'],
    ]);
  });

  it('is silent on purpose with `reply: none`, and without a reply when it only sends, forwards or copies', () => {
    const none = decide(messageEvent(message('complaint')), compileRules([{ ...complaint, reply: 'none' }]), EMPTY_STATE, context);
    expect(none.ruleId).toBe('complaint');
    expect(none.actions.map((a) => a.type)).toEqual(['effect']);
    const onlySet = decide(
      messageEvent(message('remember me')),
      compileRules([{ id: 'mark', keywords: ['remember'], reply: 'none', set: { 'user.marked': 'yes' } }]),
      EMPTY_STATE,
      context,
    );
    expect(onlySet.actions.map((a) => a.type)).toEqual(['set_state']);
    const { reply: _omitted, ...forwardOnly } = { ...complaint, send: undefined, forward: 'staff' };
    const forwarded = decide(messageEvent(message('complaint')), compileRules([forwardOnly as Rule]), EMPTY_STATE, context);
    expect(forwarded.actions).toEqual([
      {
        type: 'effect',
        kind: 'message',
        payload: { method: 'forwardmessage', params: { chat_id: -1001234567890, from_chat_id: 42, message_id: 7 } },
        orderKey: 'chat:-1001234567890',
      },
    ]);
  });

  it('checks forward and copy against the declared chats at the name, and refuses them on a button press', () => {
    const known = { chats: new Set(['staff']), configFile: 'hearsay.yaml' };
    const result = compileRulesCollecting(
      [
        { ...complaint, forward: 'sales', copy: ['staff', 'archive'] },
        { id: 'press', callback: '^x$', answer: 'ok', forward: 'staff' },
      ],
      undefined,
      [],
      [],
      undefined,
      { environment: known },
    );
    expect(result.problems.map((p) => p.message)).toEqual([
      "chat 'sales' is not declared in hearsay.yaml: add it under chats:, e.g. chats: { sales: -1001234567890 } (declared: staff)",
      "chat 'archive' is not declared in hearsay.yaml: add it under chats:, e.g. chats: { archive: -1001234567890 } (declared: staff)",
      "rule 'press' answers button presses, which bring no message of the user's to forward: remove `forward`",
    ]);
  });
});
