// The media side of the Bot API double: photos, documents, albums, locations, venues and contacts the bot sends,
// each recorded as a message whose text names what was sent (`[photo menu.png] its caption`), so a test expects
// it like any message. A file gets a file_id that names it, so sending it again by that id reads the same.
import type { Message } from '@grammyjs/types';
import { MEDIA_SENDING_METHODS } from '../api/sending-methods.js';
import type { ReplyMarkup } from '../engine/actions.js';
import { BotApiDoubleError, type SendParams } from './bot-api-double.js';

/** What the media double needs of the double it is part of. */
export interface MediaHost {
  sendMessage(params: SendParams): Promise<Message.TextMessage>;
}

/** Whether `method` sends media (sendPhoto, sendMediaGroup, sendLocation …). */
export function isMediaMethod(method: string): boolean {
  return MEDIA_METHODS.has(method);
}

export class MediaDouble {
  private readonly fileNames = new Map<string, string>();

  constructor(private readonly host: MediaHost) {}

  /**
   * The media methods, as the media sender calls them (through `call`): recorded as a message whose text names what was sent,
   * `[photo menu.png] its caption` (`[album: photo a.jpg, photo b.jpg]`, `[location 52.52, 13.405]`, …), so a
   * test expects it like any message ({ contains: "[photo menu.png]" }).
   */
  async send(method: string, params: Record<string, unknown>): Promise<unknown> {
    const kind = method.replace(/^send/, '');
    if (kind === 'mediagroup') {
      const items = params.media as Array<{ type: string; media: string; caption?: string }>;
      const names = items.map((item) => `${item.type} ${this.fileName(item.media.startsWith('attach://') ? params[item.media.slice(9)] : item.media)}`);
      const caption = items.find((item) => item.caption !== undefined)?.caption;
      const sent = await this.host.sendMessage({ ...sendOptions(params), text: `[album: ${names.join(', ')}]${caption ? ` ${caption}` : ''}` });
      return items.map((item, i) => ({
        ...sent,
        message_id: sent.message_id,
        [item.type]: this.fileFields(item.type, i === 0 ? params[`file${i}`] : undefined),
      }));
    }
    const shown = describeMedia(kind, params, (value) => this.fileName(value));
    if (shown === undefined) throw new BotApiDoubleError(`the Bot API double has no method ${method}`);
    const caption = typeof params.caption === 'string' ? ` ${params.caption}` : '';
    const sent = await this.host.sendMessage({ ...sendOptions(params), text: `[${shown}]${caption}` });
    return { ...sent, [kind]: this.fileFields(kind, params[kind]) };
  }

  /** A file's name as a test reads it: the upload's name, a URL's last segment, or the name a file_id was given for. */
  private fileName(value: unknown): string {
    if (typeof value === 'object' && value !== null && 'fileName' in value) return String((value as { fileName: string }).fileName);
    const text = String(value);
    return this.fileNames.get(text) ?? text.split('/').pop() ?? text;
  }

  /** The Message fields of a file the double "stored": a file_id that names it, as the service gives one. */
  private fileFields(kind: string, value: unknown): unknown {
    const fileId = `test-${kind}-${this.fileNames.size + 1}`;
    this.fileNames.set(fileId, this.fileName(value));
    const fields = { file_id: fileId, file_unique_id: fileId };
    return kind === 'photo' ? [fields] : fields;
  }
}

const MEDIA_METHODS: ReadonlySet<string> = new Set(MEDIA_SENDING_METHODS);

/** What a media call sends, as a test names it; undefined for a method the double does not know. */
function describeMedia(kind: string, params: Record<string, unknown>, name: (value: unknown) => string): string | undefined {
  if (['photo', 'document', 'video', 'audio', 'voice', 'animation', 'sticker'].includes(kind)) return `${kind} ${name(params[kind])}`;
  if (kind === 'location') return `location ${String(params.latitude)}, ${String(params.longitude)}`;
  if (kind === 'venue') return `venue ${String(params.title)}, ${String(params.address)}`;
  if (kind === 'contact') return `contact ${String(params.first_name)} ${String(params.phone_number)}`;
  return undefined;
}

/** The chat, reply and markup of a media call, as sendMessage takes them. */
function sendOptions(params: Record<string, unknown>): Omit<SendParams, 'text'> {
  return {
    chat_id: params.chat_id as number,
    ...(params.reply_parameters ? { reply_parameters: params.reply_parameters as { message_id: number } } : {}),
    ...(params.reply_markup ? { reply_markup: params.reply_markup as ReplyMarkup } : {}),
  };
}
