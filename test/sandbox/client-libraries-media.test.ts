// Bots written with grammY (InputFile), Telegraf (replyWithPhoto) and node-telegram-bot-api (sendPhoto) send
// and receive photos through the sandbox over real HTTP, as they would through the service: an upload, a photo
// the user sent downloaded with getFile and the file path, and that photo sent back by its file_id.
import type { Message } from '@grammyjs/types';
import { Bot as GrammyBot, InputFile as GrammyInputFile } from 'grammy';
import { Bot as NtbaBot, InputFile as NtbaInputFile } from 'node-telegram-bot-api';
import { Telegraf } from 'telegraf';
import { describe, expect, it } from 'vitest';
import { png } from '../support/images.js';
import { waitForBotReplies } from '../support/sandbox-harness.js';
import { pollWithNtba, useLibraryBotInSandbox, type Starter } from './library-bots.js';

const MENU = png(40, 30, [240, 200, 40]);

const download = async (apiRoot: string, token: string, path: string): Promise<number> =>
  (await (await fetch(`${apiRoot}/file/bot${token}/${path}`)).arrayBuffer()).byteLength;

// Each starter's bot answers /menu with an uploaded photo, and a user's photo with its size, then the photo back by file_id.
const startGrammy: Starter = async (token, apiRoot) => {
  const bot = new GrammyBot(token, { client: { apiRoot } });
  bot.command('menu', (ctx) => ctx.replyWithPhoto(new GrammyInputFile(MENU, 'menu.png'), { caption: "Today's menu" }));
  bot.on('message:photo', async (ctx) => {
    const file = await ctx.getFile();
    await ctx.reply(`got ${await download(apiRoot, token, file.file_path!)} bytes`);
    await ctx.replyWithPhoto(ctx.message.photo.at(-1)!.file_id);
  });
  await new Promise<void>((resolve) => void bot.start({ timeout: 1, onStart: () => resolve() }));
  return { stop: () => bot.stop() };
};

const startTelegraf: Starter = async (token, apiRoot) => {
  const bot = new Telegraf(token, { telegram: { apiRoot } });
  bot.command('menu', (ctx) => ctx.replyWithPhoto({ source: MENU, filename: 'menu.png' }, { caption: "Today's menu" }));
  bot.on('photo', async (ctx) => {
    const id = ctx.message.photo.at(-1)!.file_id;
    const link = await ctx.telegram.getFileLink(id);
    await ctx.reply(`got ${(await (await fetch(link)).arrayBuffer()).byteLength} bytes`);
    await ctx.replyWithPhoto(id);
  });
  await new Promise<void>((resolve) => void bot.launch({ dropPendingUpdates: false }, () => resolve()));
  return { stop: async () => bot.stop('test over') };
};

const startNtba: Starter = async (token, apiRoot) => {
  const bot = new NtbaBot(token, { apiRoot });
  bot.command('menu', (ctx) => ctx.api.sendPhoto({ chat_id: ctx.chat!.id, photo: new NtbaInputFile(MENU, { filename: 'menu.png' }), caption: "Today's menu" }));
  bot.on('message', async (ctx) => {
    const photo = ctx.message?.photo?.at(-1);
    if (!photo) return;
    const file = await ctx.api.getFile({ file_id: photo.file_id });
    await ctx.reply(`got ${await download(apiRoot, token, file.file_path!)} bytes`);
    await ctx.api.sendPhoto({ chat_id: ctx.chat!.id, photo: photo.file_id });
  });
  return pollWithNtba(bot);
};

describe.each([
  ['grammY', startGrammy, 'grammy_photo_bot'],
  ['Telegraf', startTelegraf, 'telegraf_photo_bot'],
  ['node-telegram-bot-api', startNtba, 'ntba_photo_bot'],
] as const)('a %s bot sending and receiving photos through the sandbox', (_library, start, username) => {
  const setup = useLibraryBotInSandbox(start, { name: 'Photos', username });
  const user = { id: 8401, first_name: 'Lou' };

  const send = async (body: Record<string, unknown>) => {
    const response = await fetch(`${setup.sandbox.baseUrl}/client/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user, to: username, ...body }),
    });
    return ((await response.json()) as { result: { message_id: number } }).result;
  };

  it("uploads its menu photo, downloads the user's photo and sends it back by file_id", async () => {
    const { sandbox } = setup;
    const asked = await send({ text: '/menu' });
    const [menu] = (await waitForBotReplies(sandbox.baseUrl, { userId: user.id, bot: username, after: asked.message_id })) as Message.PhotoMessage[];
    expect(menu).toMatchObject({ caption: "Today's menu", photo: [{ width: 40, height: 30, file_size: MENU.length }] });
    const shown = await fetch(`${sandbox.baseUrl}/client/file?user=${user.id}&file_id=${encodeURIComponent(menu!.photo[0]!.file_id)}`);
    expect(Buffer.from(await shown.arrayBuffer()).equals(MENU)).toBe(true);

    const damage = png(16, 12, [20, 20, 200]);
    const sent = await send({ photo: { data: damage.toString('base64'), file_name: 'damage.png' }, caption: 'torn box' });
    const [size, echo] = await waitForBotReplies(sandbox.baseUrl, { userId: user.id, bot: username, after: sent.message_id, count: 2 });
    expect(size?.text).toBe(`got ${damage.length} bytes`);
    expect((echo as Message.PhotoMessage).photo[0]).toMatchObject({ width: 16, height: 12, file_size: damage.length });
  });
});
