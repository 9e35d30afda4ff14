// setwebhook, deletewebhook, getwebhookinfo. Unlike the real service, plain http is accepted for loopback
// addresses so tests and local runs need no certificate.
import type { WebhookInfo } from '@grammyjs/types';
import { badRequest } from './api-failure.js';
import type { MethodContext } from './method-context.js';
import { applyAllowedUpdates } from './get-updates.js';
import { booleanParam, clampedInteger, stringParam, type Params } from './params.js';
import type { WebhookConfig } from './store.js';

const SECRET = /^[A-Za-z0-9_-]{1,256}$/;
const HTTPS_PORTS = new Set(['', '80', '88', '443', '8443']);

export function setWebhook(context: MethodContext, params: Params): true {
  const url = stringParam(params, 'url') ?? '';
  if (url === '') return deleteWebhook(context, params);
  const { bot, webhooks } = context;
  checkUrl(url);
  const secret = stringParam(params, 'secret_token');
  if (secret !== undefined && secret !== '') {
    if (secret.length > 256) throw badRequest('secret token is too long');
    if (!SECRET.test(secret)) throw badRequest('secret token contains unallowed characters');
  }
  applyAllowedUpdates(bot.queue, params.allowed_updates);
  const config: WebhookConfig = {
    url,
    maxConnections: clampedInteger(params, 'max_connections', 40, 1, 100),
    ...(secret ? { secretToken: secret } : {}),
  };
  if (booleanParam(params, 'drop_pending_updates')) bot.queue.dropAll();
  if (bot.webhook?.url !== url) bot.webhookStatus = {};
  bot.webhook = config;
  bot.queue.endWaitingPoll();
  webhooks.start(bot);
  context.store.presence.webhookChanged(bot);
  return true;
}

export function deleteWebhook({ bot, webhooks, store }: MethodContext, params: Params): true {
  webhooks.stop(bot);
  delete bot.webhook;
  bot.webhookStatus = {};
  if (booleanParam(params, 'drop_pending_updates')) bot.queue.dropAll();
  store.presence.webhookChanged(bot);
  return true;
}

export function getWebhookInfo({ bot }: MethodContext): WebhookInfo {
  const webhook = bot.webhook;
  return {
    url: webhook?.url ?? '',
    has_custom_certificate: false,
    pending_update_count: bot.queue.size,
    ...(bot.webhookStatus.lastErrorDate !== undefined ? { last_error_date: bot.webhookStatus.lastErrorDate } : {}),
    ...(bot.webhookStatus.lastErrorMessage !== undefined ? { last_error_message: bot.webhookStatus.lastErrorMessage } : {}),
    ...(webhook ? { max_connections: webhook.maxConnections } : {}),
    ...(webhook && bot.queue.allowedUpdates ? { allowed_updates: bot.queue.allowedUpdates } : {}),
  } as WebhookInfo;
}

function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('invalid webhook URL specified');
  }
  const loopback = isLoopback(parsed.hostname);
  if (parsed.protocol === 'http:' && loopback) return;
  if (parsed.protocol !== 'https:') throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
  if (!loopback && !HTTPS_PORTS.has(parsed.port)) throw badRequest('bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443');
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
