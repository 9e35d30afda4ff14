// The Bot API methods the sandbox implements, by lowercase name; any other name is 404 Not Found.
import {
  getChat,
  getChatAdministrators,
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
import { deleteMessage, deleteMessages, editMessageReplyMarkup, editMessageText } from './edit-methods.js';
import { getFile } from './file-methods.js';
import { copyMessage, copyMessages, forwardMessage, forwardMessages } from './forward-methods.js';
import { createForumTopic, deleteForumTopic, editForumTopic, toggleForumTopic } from './forum-topics.js';
import { editMessageCaption, editMessageMedia } from './media-edits.js';
import { sendMediaGroup } from './media-group.js';
import { fileSender, sendContact, sendLocation, sendVenue } from './media-methods.js';
import type { MethodContext } from './method-context.js';
import { approveChatJoinRequest, banChatMember, declineChatJoinRequest, restrictChatMember, unbanChatMember } from './moderation-methods.js';
import { pinChatMessage, unpinAllChatMessages, unpinChatMessage } from './pin-methods.js';
import type { Params } from './params.js';
import { getUpdates } from './get-updates.js';
import { explainUpdate, setRuleProblems } from './hearsay-reports.js';
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
  ['deletemessages', deleteMessages],
  ['sendphoto', fileSender('photo')],
  ['senddocument', fileSender('document')],
  ['sendvideo', fileSender('video')],
  ['sendaudio', fileSender('audio')],
  ['sendvoice', fileSender('voice')],
  ['sendanimation', fileSender('animation')],
  ['sendsticker', fileSender('sticker')],
  ['sendmediagroup', sendMediaGroup],
  ['sendlocation', sendLocation],
  ['sendvenue', sendVenue],
  ['sendcontact', sendContact],
  ['getfile', getFile],
  ['forwardmessage', forwardMessage],
  ['forwardmessages', forwardMessages],
  ['copymessage', copyMessage],
  ['copymessages', copyMessages],
  ['editmessagecaption', editMessageCaption],
  ['createforumtopic', createForumTopic],
  ['editforumtopic', editForumTopic],
  ['closeforumtopic', toggleForumTopic(true)],
  ['reopenforumtopic', toggleForumTopic(false)],
  ['deleteforumtopic', deleteForumTopic],
  ['editmessagemedia', editMessageMedia],
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
  ['getchatadministrators', getChatAdministrators],
  ['getchatmembercount', getChatMemberCount],
  ['getchatmemberscount', getChatMemberCount],
  ['restrictchatmember', restrictChatMember],
  ['banchatmember', banChatMember],
  ['kickchatmember', banChatMember],
  ['unbanchatmember', unbanChatMember],
  ['approvechatjoinrequest', approveChatJoinRequest],
  ['declinechatjoinrequest', declineChatJoinRequest],
  ['pinchatmessage', pinChatMessage],
  ['unpinchatmessage', unpinChatMessage],
  ['unpinallchatmessages', unpinAllChatMessages],
  ['logout', logOut],
  ['close', logOut],
  // Sandbox only: what hearsay reports about the bot it runs (rule problems, why it answered), for the chat page.
  ['setruleproblems', setRuleProblems],
  ['explainupdate', explainUpdate],
]);
