// The test world's look-ups (the force_reply question a user answers, the bot's latest message, the newest
// message with a button, the reply keyboard shown) cost the same at step 8,000 as at step 1: a long test runs
// in time linear in its steps. Counted as history entries examined, not timed.
import type { Update } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { BotApiDouble } from '../../src/conversation-tests/bot-api-double.js';
import { ChatWorld, TEST_BOT_ID } from '../../src/conversation-tests/chat-world.js';
import type { TestChat, TestUser } from '../../src/conversation-tests/model.js';

const ann: TestUser = { key: 'ann', id: 1001, first_name: 'Ann' };
const bob: TestUser = { key: 'bob', id: 1002, first_name: 'Bob' };
const group: TestChat = { key: 'g', type: 'group', id: -1001, title: 'G', privacy: false };

function sent(step: ReturnType<ChatWorld['say']>): Update {
  if (step.kind !== 'updates') throw new Error(`no update: ${JSON.stringify(step)}`);
  return step.updates[0]!;
}

/** Plays `rounds` rounds of a group conversation that uses every look-up; returns the entries examined. */
async function play(rounds: number): Promise<number> {
  const clock = { now: 0 };
  const api = new BotApiDouble({ id: TEST_BOT_ID, username: 'hearsay_test_bot', first_name: 'Bot' }, clock);
  const world = new ChatWorld(api, clock, 'hearsay_test_bot');
  const chat_id = group.id;
  let first: number | undefined;
  for (let i = 0; i < rounds; i++) {
    const asked = sent(world.say(ann, group, `book ${i}`, false)).message!;
    const question = await api.sendMessage({
      chat_id,
      text: `How many, Ann? (${i})`,
      reply_parameters: { message_id: asked.message_id },
      reply_markup: { force_reply: true, selective: true },
    });
    // Bob writing in between does not answer Ann's question; Ann's next message does.
    expect(sent(world.say(bob, group, 'hello', false)).message!.reply_to_message).toBeUndefined();
    const answer = sent(world.say(ann, group, '4', false)).message!;
    expect(answer.reply_to_message?.message_id).toBe(question.message_id);
    // As the service sends it: the replied-to message without its own reply (no chain growing with the chat).
    expect(answer.reply_to_message).not.toHaveProperty('reply_to_message');
    expect(sent(world.say(ann, group, 'and more', false)).message!.reply_to_message).toBeUndefined();
    const poll = await api.sendMessage({ chat_id, text: `Poll ${i}`, reply_markup: { inline_keyboard: [[{ text: 'Yes', callback_data: `yes:${i}` }]] } });
    first ??= poll.message_id;
    // The newest "Yes", and the very first poll's button by its data, however far back.
    expect(world.press(bob, group, 'text', 'Yes').pressed?.data).toBe(`yes:${i}`);
    expect(world.press(bob, group, 'data', 'yes:0').pressed?.message.message.message_id).toBe(first);
    if (i % 2 === 1) await api.editMessageText({ chat_id, message_id: poll.message_id, text: 'closed' });
    if (i % 10 === 0) await api.sendMessage({ chat_id, text: 'Menu', reply_markup: { keyboard: [[{ text: 'Help' }]] } });
    expect(sent(world.press(bob, group, 'text', 'Help')).message!.text).toBe('Help');
    expect(sent(world.say(bob, group, 'thanks', true)).message!.reply_to_message?.from?.id).toBe(TEST_BOT_ID);
  }
  return api.entriesVisited;
}

describe('the test world at step 8,000', () => {
  it('examines a bounded number of history entries per step, however long the chat (linear, not quadratic)', async () => {
    const short = await play(250);
    const long = await play(1000);
    // Four times the rounds: about four times the work (a quadratic walk would be about sixteen).
    expect(long / short).toBeLessThan(5);
    expect(long / 1000).toBeLessThan(40);
  }, 60_000);
});
