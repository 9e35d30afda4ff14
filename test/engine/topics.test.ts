// Forum topics in the pure engine: an answer goes to the topic of the message it answers (and of a pressed
// button's message), `topics:` limits a rule to some topics, {{message.topic}} shows the id; a message in
// General has no topic.
import type { Message } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { compileRules } from '../../src/engine/compile.js';
import { decide } from '../../src/engine/decide.js';
import { EMPTY_STATE } from '../../src/engine/state.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { message, messageEvent, pressEvent } from './messages.js';

const RULES: Rule[] = [
  { id: 'desk', text: 'help', topics: [12], reply: 'A helper is on the way.' },
  { id: 'where', command: 'where', reply: 'Topic {{message.topic}}.' },
  { id: 'press', callback: 'more', answer: 'ok', reply: 'More.' },
];
const ruleSet = compileRules(RULES);
const inForum = (text: string, topic?: number): Message => ({
  ...message(text, { chatType: 'supergroup', chatId: -1001 }),
  ...(topic !== undefined ? { message_thread_id: topic, is_topic_message: true } : {}),
});
const sends = (msg: Message) =>
  decide(messageEvent(msg), ruleSet, EMPTY_STATE, { botUsername: 'b' }).actions.flatMap((a) =>
    a.type === 'send_message' ? [{ text: a.text, threadId: a.threadId }] : [],
  );

describe('forum topics', () => {
  it('answers in the topic of the message, and in General a message written there', () => {
    expect(sends(inForum('/where', 57))).toEqual([{ text: 'Topic 57.', threadId: 57 }]);
    expect(sends(inForum('/where'))).toEqual([{ text: 'Topic .', threadId: undefined }]);
  });

  it('topics: answers only in those topics', () => {
    expect(sends(inForum('help', 12))).toEqual([{ text: 'A helper is on the way.', threadId: 12 }]);
    expect(sends(inForum('help', 57))).toEqual([]);
    expect(sends(inForum('help'))).toEqual([]);
  });

  it("answers a button press in the topic of the button's message", () => {
    const decision = decide(pressEvent('more', inForum('menu', 57), { id: 'q', updateId: 5 }), ruleSet, EMPTY_STATE, { botUsername: 'b' });
    expect(decision.actions).toContainEqual(expect.objectContaining({ type: 'send_message', text: 'More.', threadId: 57 }));
  });
});
