// The Bot API methods the sandbox implements, by lowercase name; any other name is 404 Not Found.
import {
  getChat,
  getChatMember,
  getChatMemberCount,
  getMyDescription,
  getMyName,
  getMyShortDescription,
  logOut,
  sendChatAction,
  setMyDescription,
  setMyName,
  setMyShortDescription,
} from './bot-profile-methods.js';
import { deleteMyCommands, getChatMenuButton, getMyCommands, setChatMenuButton, setMyCommands } from './command-methods.js';
import { deleteMessage, editMessageReplyMarkup, editMessageText } from './edit-methods.js';
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
  ['editmessagetext', editMessageText],
  ['editmessagereplymarkup', editMessageReplyMarkup],
  ['deletemessage', deleteMessage],
  ['answercallbackquery', (context, params) => context.callbacks.answer(context, params)],
  ['sendchataction', sendChatAction],
  ['setmycommands', setMyCommands],
  ['getmycommands', getMyCommands],
  ['deletemycommands', deleteMyCommands],
  ['setchatmenubutton', setChatMenuButton],
  ['getchatmenubutton', getChatMenuButton],
  ['setmyname', setMyName],
  ['getmyname', getMyName],
  ['setmydescription', setMyDescription],
  ['getmydescription', getMyDescription],
  ['setmyshortdescription', setMyShortDescription],
  ['getmyshortdescription', getMyShortDescription],
  ['getchat', getChat],
  ['getchatmember', getChatMember],
  ['getchatmembercount', getChatMemberCount],
  ['getchatmemberscount', getChatMemberCount],
  ['logout', logOut],
  ['close', logOut],
]);
