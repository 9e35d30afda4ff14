// The conversation tests' pipeline driver runs a bot on the memory store with the outbox: a rule's `send`
// reaches the other chat right after the reply, through the same Bot API double.
import { describe, expect, it } from 'vitest';
import { BotApiDouble } from '../../src/conversation-tests/bot-api-double.js';
import { createPipelineDriver } from '../../src/conversation-tests/pipeline-driver.js';
import type { Update } from '../../src/api/types.js';
import { compileRules } from '../../src/engine/compile.js';

const BOT = { id: 1, username: 'desk_bot', first_name: 'Desk' };
const T0 = Date.UTC(2026, 10, 27, 12);
const said = (id: number, text: string): Update =>
  ({
    update_id: id,
    message: {
      message_id: id,
      date: T0 / 1000,
      chat: { id: 42, type: 'private', first_name: 'Ada' },
      from: { id: 42, is_bot: false, first_name: 'Ada' },
      text,
    },
  }) as Update;

describe('the pipeline driver of hearsay test', () => {
  it("performs a rule's send after its reply, through the same Bot API double", async () => {
    const clock = { now: T0 };
    const api = new BotApiDouble(BOT, clock);
    const ruleSet = compileRules([{ id: 'complaint', keywords: ['complaint'], reply: 'Sorry!', send: { to: -5, text: 'Complaint: {{text}}' } }]);
    const driver = createPipelineDriver({ ruleSet, botUsername: BOT.username, api, clock, random: () => 0, onDecision: () => undefined });
    await driver.handle(said(1, 'a complaint'));
    expect(api.outputs.map((o) => (o.kind === 'message' ? [o.chatId, o.text] : o.kind))).toEqual([
      [42, 'Sorry!'],
      [-5, 'Complaint: a complaint'],
    ]);
    await driver.close();
  });
});
