// `hearsay run` (a real child process, polling) against the sandbox, for what reaches more people: replies in
// the user's client language, a member joining a group greeted once although the bot gets the join twice
// (the service message and a chat_member update it asked for), and "text @bot" in a group reaching `text:`.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  changeGroupMembership,
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

const RULES = `
languages: { default: en, supported: [en, de] }
rules:
  - id: hello
    text: hi
    reply: { en: "Hello!", de: "Hallo!" }
  - id: welcome
    event: member_joined
    reply: { en: "Welcome, {{user.first_name}}!", de: "Willkommen, {{user.first_name}}!" }
  - id: ping
    text: ping
    reply: pong
`;

const ANN = { id: 6201, first_name: 'Ann', language_code: 'en' };
const JONAS = { id: 6202, first_name: 'Jonas', language_code: 'de-AT' };
const LEA = { id: 6203, first_name: 'Lea', language_code: 'de' };

describe('hearsay run: languages, member events, mentions', () => {
  const { sandbox, running } = sandboxAndRuns();
  let run: RunProcess;
  let bot: { token: string; username: string };
  let groupId: number;

  beforeAll(async () => {
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: ANN.id, name: 'Reach', username: 'reach_hearsay_bot' });
    // An administrator, so that the service sends it chat_member updates too.
    groupId = await createGroup(sandbox.baseUrl, { title: 'Club', members: [ANN], bots: [bot.username], admins: [{ bot: bot.username }] });
    run = await startPollingRun(sandbox.baseUrl, bot.token, RULES, running);
  });

  it('answers in the language of the user’s client: de and de-AT get German, en English', async () => {
    for (const [user, expected] of [
      [LEA, 'Hallo!'],
      [JONAS, 'Hallo!'],
      [ANN, 'Hello!'],
    ] as const) {
      const sent = await sendAsUser(sandbox.baseUrl, user, bot.username, 'hi');
      const [reply] = await waitForBotReplies(sandbox.baseUrl, { userId: user.id, bot: bot.username, after: sent.message_id, timeoutMs: 8000 });
      expect(reply?.text).toBe(expected);
    }
  });

  it('greets a member who joins once, in their language, though the join arrives twice; "ping @bot" reaches text: ping', async () => {
    const joinMessage = await changeGroupMembership(sandbox.baseUrl, LEA, groupId, 'join');
    const [greeting] = await waitForGroupReplies(sandbox.baseUrl, { userId: ANN.id, chatId: groupId, bot: bot.username, after: joinMessage.message_id });
    expect(greeting?.text).toBe('Willkommen, Lea!');
    // The chat's updates are handled in order: once "pong" is there, the chat_member copy of the join was handled too.
    const ping = await sendToGroup(sandbox.baseUrl, ANN, groupId, `ping @${bot.username}`);
    await waitForGroupReplies(sandbox.baseUrl, { userId: ANN.id, chatId: groupId, bot: bot.username, after: ping.message_id, timeoutMs: 8000 });
    const fromBot = (await groupMessages(sandbox.baseUrl, ANN.id, groupId, joinMessage.message_id)).filter((message) => message.from?.is_bot);
    expect(fromBot.map((message) => message.text)).toEqual(['Willkommen, Lea!', 'pong']);
    // Both copies of the join were handled before the ping: the service message (greeted) and the chat_member
    // update (asked for because a rule answers member joins), which answered nothing.
    const handled = run.lines.filter((line) => line.includes('"update handled"') && line.includes(`"chat_id":${groupId}`));
    // (The bot's own my_chat_member, from when the group was made, comes before them.)
    const rules = handled.map((line) => (JSON.parse(line) as { rule: string | null }).rule);
    expect(rules.slice(rules.indexOf('welcome'), rules.indexOf('welcome') + 2)).toEqual(['welcome', null]);
  });
});
