// schemas/rules.schema.json on its own (as editors use it): the documented format passes, mistakes fail.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { rulesSchema } from '../../src/generated/rules-schema.js';

const validate = new Ajv2020({ allErrors: true, strictRequired: false }).compile(rulesSchema as object);

const issueExample = `
rules:
  - id: start
    command: start
    reply: "Welcome, {{user.first_name}}! Try /help."
  - id: ping
    text: ping
    reply: pong
  - id: order
    pattern: 'order\\s+(?<num>\\d+)'
    reply: "Order {{match.num}} is on its way."
  - id: greet
    pattern: '^(hi|hello)\\b'
    reply:
      - "Hello, {{user.first_name}}!"
      - "Hi there!"
  - id: refund
    keywords: [refund, "money back"]
    chat_types: [private]
    reply: "Write to support@example.com about refunds."
  - id: fallback
    fallback: true
    reply: "Sorry, I did not get that. Try /help."
    chats: [-100123, 5]
    case_sensitive: false
    parse_mode: MarkdownV2
    reply_to_message: true
    disable_notification: true
    examples: ["anything"]
`;

describe('rules schema', () => {
  it('accepts the documented format with every option', () => {
    expect(validate(parse(issueExample)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ rules: [] })).toBe(true);
  });

  it.each([
    ['an unknown key', { rules: [{ id: 'a', text: 'x', reply: 'y', repyl: 'z' }] }],
    ['two triggers', { rules: [{ id: 'a', text: 'x', pattern: 'x', reply: 'y' }] }],
    ['no trigger', { rules: [{ id: 'a', reply: 'y' }] }],
    ['no reply', { rules: [{ id: 'a', text: 'x' }] }],
    ['a slash command', { rules: [{ id: 'a', command: '/start', reply: 'y' }] }],
    ['a 33-character command', { rules: [{ id: 'a', command: 'a'.repeat(33), reply: 'y' }] }],
    ['fallback: false', { rules: [{ id: 'a', fallback: false, reply: 'y' }] }],
    ['an unknown chat type', { rules: [{ id: 'a', text: 'x', reply: 'y', chat_types: ['privat'] }] }],
    ['a non-integer chat id', { rules: [{ id: 'a', text: 'x', reply: 'y', chats: [1.5] }] }],
    ['an empty reply list', { rules: [{ id: 'a', text: 'x', reply: [] }] }],
    ['a top-level key besides rules', { rules: [], extra: 1 }],
    ['an id with spaces', { rules: [{ id: 'a b', text: 'x', reply: 'y' }] }],
  ])('rejects %s', (_name, data) => {
    expect(validate(data)).toBe(false);
  });
});
