// `hearsay run` (a real child process, polling) against the sandbox's groups: rules limited by chat_types,
// a command addressed to this bot answered in the group, one for another bot never seen, and the
// private-chat rule still answering in a private chat.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBotViaAssistant,
  createGroup,
  groupMessages,
  sendAsUser,
  sendToGroup,
  waitForBotReplies,
  waitForGroupReplies,
} from '../support/sandbox-harness.js';
import { startPollingRun, type RunProcess } from './run-process.js';
import { sandboxAndRuns } from './sandbox-and-runs.js';

const RULES = [
  'rules:',
  '  - id: help-group',
  '    command: help',
  '    chat_types: [group, supergroup]',
  '    reply: "Group help: mention me or use /help@me"',
  '  - id: help-private',
  '    command: help',
  '    chat_types: [private]',
  '    reply: "Private help: just write to me"',
  '',
].join('\n');

const ANN = { id: 6101, first_name: 'Ann', username: 'ann' };
const BOB = { id: 6102, first_name: 'Bob' };

describe('hearsay run in groups', () => {
  const { sandbox, running } = sandboxAndRuns();
  let run: RunProcess;
  let bot: { token: string; username: string };
  let otherBot: { username: string };
  let groupId: number;

  beforeAll(async () => {
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Grouped', username: 'grouped_hearsay_bot' });
    otherBot = await createBotViaAssistant(sandbox.baseUrl, { userId: BOB.id, name: 'Other', username: 'someone_else_bot' });
    groupId = await createGroup(sandbox.baseUrl, { title: 'Team', members: [ANN, BOB], bots: [bot.username, otherBot.username] });
    run = await startPollingRun(sandbox.baseUrl, bot.token, RULES, running);
  });

  it('answers /help@thisbot in the group with the group rule, and never a command for another bot', async () => {
    await sendToGroup(sandbox.baseUrl, BOB, groupId, `/help@${otherBot.username}`);
    const addressed = await sendToGroup(sandbox.baseUrl, ANN, groupId, `/help@${bot.username}`);
    const [reply] = await waitForGroupReplies(sandbox.baseUrl, { userId: ANN.id, chatId: groupId, bot: bot.username, timeoutMs: 8000 });
    expect(reply).toMatchObject({ text: 'Group help: mention me or use /help@me', chat: { id: groupId, type: 'group', title: 'Team' } });
    expect(reply!.message_id).toBeGreaterThan(addressed.message_id);
    // A little grace: an answer to the other bot's command would show up around now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const fromBot = (await groupMessages(sandbox.baseUrl, BOB.id, groupId)).filter((message) => message.from?.is_bot);
    expect(fromBot.map((message) => message.text)).toEqual(['Group help: mention me or use /help@me']);
  });

  it('answers /help in a private chat with the private rule', async () => {
    const sent = await sendAsUser(sandbox.baseUrl, ANN, bot.username, '/help');
    const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId: ANN.id, bot: bot.username, after: sent.message_id, timeoutMs: 8000 });
    expect(reply).toMatchObject({ text: 'Private help: just write to me', chat: { id: ANN.id, type: 'private' } });
    expect(run.lines.join('\n')).not.toContain(bot.token);
  });
});
