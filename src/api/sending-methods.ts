// Which Bot API methods send a message to a chat: the media ones (a photo, an album, a location …), and every one
// (texts, media, forwards and copies), which the service's rate limits count and the retry policy treats alike.
import type { MethodName } from './types.js';

/** The methods that send media, a location, a venue or a contact. */
export const MEDIA_SENDING_METHODS = [
  'sendphoto',
  'senddocument',
  'sendvideo',
  'sendaudio',
  'sendvoice',
  'sendanimation',
  'sendsticker',
  'sendmediagroup',
  'sendlocation',
  'sendvenue',
  'sendcontact',
] as const satisfies readonly MethodName[];

/** The methods that send a message to a chat, which the service's limits count (and which, sent again after a timeout, may show twice). */
export const SENDING_METHODS: readonly MethodName[] = ['sendmessage', ...MEDIA_SENDING_METHODS, 'forwardmessage', 'copymessage'];
