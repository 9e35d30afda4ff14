// Photos, documents, locations … that users send, through rule files and decide(): `event: photo` and
// `media: any` with their caption filters, what templates read from the message ({{message.*}}), `forward` and
// `copy` to a named chat, and flow steps that ask for a photo or a location.
import type { Message, Update } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { decide, type Decision } from '../../src/engine/decide.js';
import type { EffectAction } from '../../src/engine/actions.js';
import { toEvent, updateKindsFor, type BotEvent } from '../../src/engine/events.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { applyStateChanges, EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent } from './messages.js';

const context = { botUsername: 'shop_bot', chats: new Map<string, number | string>([['staff', -1001234567890]]), random: () => 0 };

async function load(yaml: string): Promise<RuleSet> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => {
    const outcome = await loadRules(dir);
    if (!outcome.ruleSet) throw new Error(outcome.problems.map((p) => p.format('bot.yaml')).join('\n'));
    return outcome.ruleSet;
  });
}

async function problems(yaml: string): Promise<string[]> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => (await loadRules(dir)).problems.map((p) => p.format('bot.yaml')));
}

const photo = {
  photo: [
    { file_id: 'AgACAgIAAxk-small', file_unique_id: 's', width: 90, height: 60, file_size: 900 },
    { file_id: 'AgACAgIAAxk-large', file_unique_id: 'l', width: 900, height: 600, file_size: 90000 },
  ],
};
const document = { document: { file_id: 'BQACAgIAAxk-doc', file_unique_id: 'd', file_name: 'receipt.pdf', mime_type: 'application/pdf', file_size: 2048 } };
const location = { location: { latitude: 52.52, longitude: 13.405 } };
const contact = { contact: { phone_number: '+4930123456', first_name: 'Ada' } };

/** A user's message with media (and a caption), as the service delivers it. */
function mediaEvent(fields: object, caption?: string, messageId = 7): BotEvent {
  const base = message(undefined);
  const event = toEvent({
    update_id: messageId,
    message: { ...base, message_id: messageId, ...fields, ...(caption !== undefined ? { caption } : {}) } as Message,
  } as Update);
  if (event?.kind !== 'media') throw new Error('not a media message');
  return event;
}

const run = (event: BotEvent, ruleSet: RuleSet, state: ConversationState = EMPTY_STATE): Decision => decide(event, ruleSet, state, context);
const texts = (decision: Decision) => decision.actions.flatMap((a) => (a.type === 'send_message' ? [a.text] : []));
const effects = (decision: Decision) => decision.actions.filter((a): a is EffectAction => a.type === 'effect').map((e) => e.payload);

const SHOP = `
rules:
  - id: receipt
    event: document
    keywords: [receipt, invoice]
    reply: "Thanks for the receipt {{message.file_name}} ({{message.mime_type}}, {{message.file_size}} bytes)."
  - id: order-photo
    event: photo
    pattern: 'order (\\d+)'
    reply: "Photo for order {{match.1}}: {{message.caption}}"
  - id: damage
    event: photo
    reply: "Thanks, {{user.first_name}}: our staff will look at your photo ({{message.media}}, {{message.file_id}})."
    forward: staff
  - id: where
    event: location
    reply: "You are at {{message.latitude}}, {{message.longitude}}."
    copy: staff
  - id: anything
    media: any
    reply: "Got your {{message.media}}."
  - id: fallback
    fallback: true
    reply: "Sorry?"
`;

describe('media users send, as triggers', () => {
  it('a photo gets the first photo rule whose caption filter passes, with the largest size, and is forwarded to staff', async () => {
    const ruleSet = await load(SHOP);
    const plain = run(mediaEvent(photo), ruleSet);
    expect(plain.ruleId).toBe('damage');
    expect(texts(plain)).toEqual(['Thanks, Ada: our staff will look at your photo (photo, AgACAgIAAxk-large).']);
    expect(effects(plain)).toEqual([{ method: 'forwardmessage', params: { chat_id: -1001234567890, from_chat_id: 42, message_id: 7 } }]);
    const ordered = run(mediaEvent(photo, 'This is ORDER 1234, broken'), ruleSet);
    expect(ordered.ruleId).toBe('order-photo');
    expect(texts(ordered)).toEqual(['Photo for order 1234: This is ORDER 1234, broken']);
  });

  it('a document is matched by caption keywords (whole words, any case); without them it falls to media: any', async () => {
    const ruleSet = await load(SHOP);
    expect(texts(run(mediaEvent(document, 'My Receipt!'), ruleSet))).toEqual(['Thanks for the receipt receipt.pdf (application/pdf, 2048 bytes).']);
    expect(texts(run(mediaEvent(document, 'receipts'), ruleSet))).toEqual(['Got your document.']);
    expect(texts(run(mediaEvent(document), ruleSet))).toEqual(['Got your document.']);
    expect(texts(run(mediaEvent(contact), ruleSet))).toEqual(['Got your contact.']);
  });

  it('a location fills {{message.latitude}} and is copied to staff', async () => {
    const decision = run(mediaEvent(location, undefined, 9), await load(SHOP));
    expect(texts(decision)).toEqual(['You are at 52.52, 13.405.']);
    expect(effects(decision)).toEqual([{ method: 'copymessage', params: { chat_id: -1001234567890, from_chat_id: 42, message_id: 9 } }]);
  });

  it('text never reaches a media rule, a photo never reaches the fallback, and {{text}} is a caption', async () => {
    const ruleSet = await load(`
rules:
  - id: photo
    event: photo
    chat_types: [group]
    reply: "caption: {{text}}"
  - id: fallback
    fallback: true
    reply: "Sorry?"
`);
    expect(texts(run(messageEvent(message('a photo')), ruleSet))).toEqual(['Sorry?']);
    expect(run(mediaEvent(photo, 'hi'), ruleSet)).toEqual({ ruleId: null, actions: [] });
    const group = toEvent({ update_id: 3, message: { ...message(undefined, { chatType: 'group' }), ...photo, caption: 'hi' } } as Update)!;
    expect(texts(run(group, ruleSet))).toEqual(['caption: hi']);
    // Media rules need no chat_member updates.
    expect(updateKindsFor(ruleSet)).toEqual(['message', 'callback_query', 'my_chat_member']);
  });

  it('check: a caption filter on a member event, keywords and pattern together, forward where there is no message, two triggers', async () => {
    const found = await problems(`
rules:
  - id: hello
    event: member_joined
    keywords: [hi]
    reply: "Welcome"
  - id: both
    event: photo
    keywords: [a]
    pattern: b
    reply: "x"
  - id: press
    callback: '^ok$'
    answer: "ok"
    forward: staff
`);
    expect(found.join('\n')).toContain("rule 'hello' answers member_joined, which has no text: `keywords` beside `event` is only for the caption of media");
    expect(found.join('\n')).toContain("rule 'both' has both keywords and pattern for the caption: keep one");
    expect(found.join('\n')).toContain("rule 'press' answers button presses, which bring no message of the user's to forward: remove `forward`");
    const two = await problems('rules:\n  - { id: two, event: photo, media: any, keywords: [x], reply: "x" }\n');
    expect(two.join('\n')).toMatch(/rule 'two' has two triggers \(event, media\): keep one/);
  });
});

const REPORT = `
rules:
  - id: photo-outside
    event: photo
    reply: "A photo outside the flow."
flows:
  - id: report
    start: { command: report }
    steps:
      - id: where
        ask: "Where are you? Send your location."
        accept: { location: true }
        retry: "Please send a location (the paperclip, then Location)."
      - id: picture
        ask: "Send us a photo of the problem."
        accept: { photo: true }
      - id: note
        ask: "Anything to add?"
    done:
      - reply: "Reported at {{flow.where}}: photo {{flow.picture}}, note {{flow.note}}."
        photo: "{{flow.picture}}"
        caption: "Your photo, with the note: {{flow.note}}"
`;

describe('flow steps that ask for media', () => {
  it('keeps a location as "latitude,longitude" and a photo as its file_id; text or another kind asks again', async () => {
    const ruleSet = await load(REPORT);
    let state: ConversationState = EMPTY_STATE;
    const step = (event: BotEvent) => {
      const decision = decide(event, ruleSet, state, { ...context, now: () => 1_000 });
      state = applyStateChanges(state, decision.actions);
      return texts(decision);
    };
    expect(step(messageEvent(message('/report', { entities: [{ type: 'bot_command', offset: 0, length: 7 }] })))).toEqual([
      'Where are you? Send your location.',
    ]);
    expect(step(messageEvent(message('Berlin')))).toEqual(['Please send a location (the paperclip, then Location).']);
    expect(step(mediaEvent(photo))).toEqual(['Please send a location (the paperclip, then Location).']);
    expect(step(mediaEvent(location))).toEqual(['Send us a photo of the problem.']);
    expect(step(mediaEvent(document, 'a scan'))).toEqual(['Send us a photo of the problem.']);
    expect(step(mediaEvent(photo, 'the broken door'))).toEqual(['Anything to add?']);
    const done = decide(messageEvent(message('Door 3')), ruleSet, state, { ...context, now: () => 1_000 });
    expect(texts(done)).toEqual(['Reported at 52.52,13.405: photo AgACAgIAAxk-large, note Door 3.']);
    // The kept file_id goes back as a photo: a template in a media source is filled in when it is sent.
    expect(done.actions.find((a) => a.type === 'send_media')).toMatchObject({
      media: { kind: 'photo', source: { kind: 'file_id', fileId: 'AgACAgIAAxk-large' } },
      caption: 'Your photo, with the note: Door 3',
    });
    state = applyStateChanges(state, done.actions);
    expect(state.flow ?? null).toBeNull();
    expect(step(mediaEvent(photo))).toEqual(['A photo outside the flow.']);
  });
});
