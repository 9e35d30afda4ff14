// Telegraf contestant in its idiomatic form: bot.command / bot.hears in rule order and a
// text fallback last. Modes: polling (bot.launch) and webhook (bot.webhookCallback).
import http from 'node:http';
import { Telegraf } from 'telegraf';
import { message } from 'telegraf/filters';
import { keywordRegExp, patternRegExp } from '../workload/reference-matcher.mjs';
import { listenLocal, readChildEnv } from './child-env.mjs';

const mode = process.argv[2];
const { baseUrl, token, rules } = readChildEnv();
const bot = new Telegraf(token, { telegram: { apiRoot: baseUrl } });

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
      bot.on(message('text'), (ctx) => ctx.reply(rule.reply));
      break;
    default:
      throw new Error(`unknown rule kind ${rule.kind}`);
  }
}
bot.catch((err) => process.stderr.write(`telegraf handler error: ${err}\n`));

if (mode === 'polling') {
  void bot.launch();
} else if (mode === 'webhook') {
  const server = http.createServer(bot.webhookCallback('/hook'));
  const url = await listenLocal(server, '/hook');
  await bot.telegram.setWebhook(url);
} else {
  throw new Error(`mode must be polling or webhook, got ${mode}`);
}
