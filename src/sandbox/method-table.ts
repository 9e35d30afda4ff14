// The Bot API methods the sandbox implements, by lowercase name.
import type { MethodContext } from './method-context.js';
import type { Params } from './params.js';
import { getUpdates } from './get-updates.js';
import { getMe, sendMessage } from './send-message.js';
import { deleteWebhook, getWebhookInfo, setWebhook } from './webhook-methods.js';

export type MethodHandler = (context: MethodContext, params: Params) => unknown;

export const METHODS: ReadonlyMap<string, MethodHandler> = new Map<string, MethodHandler>([
  ['getme', getMe],
  ['sendmessage', sendMessage],
  ['getupdates', getUpdates],
  ['setwebhook', setWebhook],
  ['deletewebhook', deleteWebhook],
  ['getwebhookinfo', getWebhookInfo],
]);
