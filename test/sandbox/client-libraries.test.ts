// Bots written with three common client libraries (grammY, Telegraf, node-telegram-bot-api) run against the
// sandbox over real HTTP: a command menu set at start, "typing…", an inline keyboard, a press answered with a
// toast, and the message edited in place.
import { Bot as GrammyBot } from 'grammy';
import { Bot as NtbaBot } from 'node-telegram-bot-api';
import { Telegraf } from 'telegraf';
import { describe, expect, it } from 'vitest';
import { chatState, pressButton, sendAsUser, waitForChat } from '../support/sandbox-harness.js';
import { pollWithNtba, useLibraryBotInSandbox, type Starter } from './library-bots.js';

const COMMANDS = [{ command: 'poll', description: 'Where should we meet?' }];
const KEYBOARD = {
  inline_keyboard: [
    [
      { text: 'Café Kiez', callback_data: 'vote:kiez' },
      { text: 'Park Café', callback_data: 'vote:park' },
    ],
  ],
};

const startGrammy: Starter = async (token, apiRoot) => {
  const bot = new GrammyBot(token, { client: { apiRoot } });
  await bot.api.setMyCommands(COMMANDS);
  bot.command('poll', async (ctx) => {
    await ctx.replyWithChatAction('typing');
    await ctx.reply('Where should the next meetup be?', { reply_markup: KEYBOARD });
  });
  bot.callbackQuery(/^vote:(\w+)$/, async (ctx) => {
    await ctx.answerCallbackQuery({ text: 'Thanks!' });
    await ctx.editMessageText(`You chose ${ctx.match[1]}.`);
  });
  const started = new Promise<void>((resolve) => void bot.start({ timeout: 1, onStart: () => resolve() }));
  await started;
  return { stop: () => bot.stop() };
};

const startTelegraf: Starter = async (token, apiRoot) => {
  const bot = new Telegraf(token, { telegram: { apiRoot } });
  await bot.telegram.setMyCommands(COMMANDS);
  bot.command('poll', async (ctx) => {
    await ctx.sendChatAction('typing');
    await ctx.reply('Where should the next meetup be?', { reply_markup: KEYBOARD });
  });
  bot.action(/^vote:(\w+)$/, async (ctx) => {
    await ctx.answerCbQuery('Thanks!');
    await ctx.editMessageText(`You chose ${ctx.match[1]}.`);
  });
  const started = new Promise<void>((resolve) => void bot.launch({ dropPendingUpdates: false }, () => resolve()));
  await started;
  return {
    stop: async () => {
      bot.stop('test over');
    },
  };
};

const startNtba: Starter = async (token, apiRoot) => {
  const bot = new NtbaBot(token, { apiRoot });
  await bot.api.setMyCommands({ commands: COMMANDS });
  bot.command('poll', async (ctx) => {
    await ctx.api.sendChatAction({ chat_id: ctx.chat!.id, action: 'typing' });
    await ctx.reply('Where should the next meetup be?', { reply_markup: KEYBOARD });
  });
  bot.on('callback_query', async (ctx) => {
    const query = ctx.callbackQuery!;
    const choice = /^vote:(\w+)$/.exec(query.data ?? '')?.[1];
    if (!choice || !query.message) return;
    await ctx.answerCallbackQuery({ text: 'Thanks!' });
    await ctx.api.editMessageText({ chat_id: query.message.chat.id, message_id: query.message.message_id, text: `You chose ${choice}.` });
  });
  return pollWithNtba(bot);
};

describe.each([
  ['grammY', startGrammy, 'grammy_poll_bot'],
  ['Telegraf', startTelegraf, 'telegraf_poll_bot'],
  ['node-telegram-bot-api', startNtba, 'ntba_poll_bot'],
] as const)('a %s bot with buttons against the sandbox', (_library, start, username) => {
  const setup = useLibraryBotInSandbox(start, { name: 'Poll', username });
  const user = { id: 7001, first_name: 'Lou' };

  it('shows its command menu, types, offers buttons, answers the press and edits the message', async () => {
    const { sandbox } = setup;
    expect((await chatState(sandbox.baseUrl, user.id, username)).commands).toEqual(COMMANDS);
    await sendAsUser(sandbox.baseUrl, user, username, '/poll');
    const [poll] = await waitForChat(sandbox.baseUrl, {
      userId: user.id,
      peer: username,
      until: (messages) => messages.some((message) => message.from?.is_bot && message.reply_markup),
    }).then((messages) => messages.filter((message) => message.from?.is_bot));
    expect(poll).toMatchObject({ text: 'Where should the next meetup be?', reply_markup: KEYBOARD });
    const stats = (await (await fetch(`${sandbox.baseUrl}/client/stats?bot=${username}`)).json()) as { result: { requests: Record<string, number> } };
    expect(stats.result.requests.sendchataction).toBe(1);

    const pressed = await pressButton(sandbox.baseUrl, user, { messageId: poll!.message_id, data: 'vote:kiez', wait: 10 });
    expect(pressed.answer).toMatchObject({ status: 'answered', text: 'Thanks!' });
    const messages = await waitForChat(sandbox.baseUrl, {
      userId: user.id,
      peer: username,
      until: (all) => all.some((message) => message.message_id === poll!.message_id && message.text === 'You chose kiez.'),
    });
    const edited = messages.find((message) => message.message_id === poll!.message_id)!;
    expect(edited.edits).toEqual([{ text: 'Where should the next meetup be?', reply_markup: KEYBOARD }]);
    expect(edited.reply_markup).toBeUndefined();
  });
});
