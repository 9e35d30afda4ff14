// grammY contestant in its idiomatic form: bot.command / bot.hears in rule order and a
// text fallback last. Modes: polling (bot.start), runner (@grammyjs/runner run), webhook.
import http from 'node:http';
import { Bot, webhookCallback } from 'grammy';
import { run } from '@grammyjs/runner';
import { keywordRegExp, patternRegExp } from '../workload/reference-matcher.mjs';
import { listenLocal, readChildEnv } from './child-env.mjs';

const mode = process.argv[2];
const { baseUrl, token, rules, fault } = readChildEnv();
const bot = new Bot(token, { client: { apiRoot: baseUrl } });

if (fault) {
  bot.use(async (ctx, next) => {
    if (ctx.update.update_id !== fault.updateId) return next();
    if (fault.kind === 'wrong') await ctx.reply('WRONG ANSWER');
  });
}

for (const rule of rules) {
  switch (rule.kind) {
    case 'command':
      bot.command(rule.command, (ctx) => ctx.reply(rule.reply));
      break;
    case 'text':
      bot.hears(rule.text, (ctx) => ctx.reply(rule.reply));
      break;
    case 'pattern':
      bot.hears(patternRegExp(rule.pattern), (ctx) => ctx.reply(rule.replyCapture ? `${rule.reply}${ctx.match[1]}` : rule.reply));
      break;
    case 'keywords':
      bot.hears(keywordRegExp(rule.keywords), (ctx) => ctx.reply(rule.reply));
      break;
    case 'fallback':
      bot.on('message:text', (ctx) => ctx.reply(rule.reply));
      break;
    default:
      throw new Error(`unknown rule kind ${rule.kind}`);
  }
}
bot.catch((err) => process.stderr.write(`grammy handler error: ${err.error}\n`));

if (mode === 'polling') {
  void bot.start();
} else if (mode === 'runner') {
  await bot.init();
  run(bot);
} else if (mode === 'webhook') {
  await bot.init();
  const server = http.createServer(webhookCallback(bot, 'http'));
  const url = await listenLocal(server, '/hook');
  await bot.api.setWebhook(url);
} else {
  throw new Error(`mode must be polling, runner or webhook, got ${mode}`);
}
