// Turns one send_media action into its Bot API call (sendphoto … sendmediagroup, sendlocation or sendvenue,
// sendcontact) and says how it went, as the ReplySender does for text. A file next to the rules goes by the
// file_id the service gave for its content earlier (MediaFileIds), else it is uploaded (multipart) and the
// file_id of the answer is kept for next time; a kept file_id the service refuses is forgotten and the file
// uploaded again at once. Refusals (400/403) and the last failed attempt drop the message; 401 throws.
import { readFile } from 'node:fs/promises';
import { ApiError } from '../api/errors.js';
import { TokenRejectedError, classifyFailure } from '../api/failure.js';
import type { BotApi, InputFileParam, InputMediaParam, Message, MethodName, SendOptionsParams, UploadedFile } from '../api/types.js';
import type { SendMediaAction } from '../engine/actions.js';
import type { MediaSource } from '../engine/media.js';
import type { Logger } from '../log/logger.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import { mediaKey, type MediaFileIds } from './media-file-ids.js';
import { DeliveryAbortedError, type SendOutcome } from './reply-sender.js';

export interface MediaSenderOptions {
  api: BotApi;
  fileIds: MediaFileIds;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Reads a file next to the rules (tests replace it). */
  readFile?: (path: string) => Promise<Buffer>;
}

/** A file sent in this call: where its file_id will be in the answer, and the key to keep it under. */
interface Sent {
  readonly key: string;
  /** The Message field that carries it (photo, document …) and the album index, if any. */
  readonly field: string;
  readonly index: number;
  /** True when it was uploaded (its file_id is then kept); false when a kept file_id was used. */
  readonly uploaded: boolean;
}

/** One call: method, parameters, and what it sends of the local files. */
interface Call {
  readonly method: MethodName;
  readonly params: Record<string, unknown>;
  readonly files: Sent[];
}

const NOT_CACHED = /file identifier|file_id|can't use file|wrong type of the web page content/i;

export class MediaSender {
  private readonly read: (path: string) => Promise<Buffer>;

  constructor(private readonly options: MediaSenderOptions) {
    this.read = options.readFile ?? ((path) => readFile(path));
  }

  /** Sends the media of `action`; `ruleId` names the rule in the log lines. */
  async send(action: SendMediaAction, ruleId: string | null, signal?: AbortSignal): Promise<SendOutcome> {
    const context = { chat_id: action.chatId, rule: ruleId, media: action.media.kind };
    try {
      let call = await this.prepare(action, false);
      try {
        return await this.attempt(call, signal, context);
      } catch (error) {
        // A kept file_id the service no longer knows: upload the files again, once.
        if (!isRefusedFileId(error) || !call.files.some((file) => !file.uploaded)) throw error;
        for (const file of call.files) if (!file.uploaded) await this.options.fileIds.forget(file.key);
        this.options.logger.info(context, 'the service refused a kept file_id; uploading the file again');
        call = await this.prepare(action, true);
        return await this.attempt(call, signal, context);
      }
    } catch (error) {
      return this.failed(error, signal, context);
    }
  }

  private async attempt(call: Call, signal: AbortSignal | undefined, context: Record<string, unknown>): Promise<SendOutcome> {
    if (signal?.aborted) throw new DeliveryAbortedError();
    const options = signal ? { signal, logFields: context } : { logFields: context };
    const result = (await this.options.api.call(call.method, call.params as never, options)) as Message | Message[];
    const messages = Array.isArray(result) ? result : [result];
    await this.keepFileIds(call.files, messages);
    // The message it became (an album's first), for a rule that pins its reply.
    const messageId = messages[0]?.message_id;
    return { sent: messages.length, dropped: false, ...(typeof messageId === 'number' ? { messageId } : {}) };
  }

  private failed(error: unknown, signal: AbortSignal | undefined, context: Record<string, unknown>): SendOutcome {
    if (error instanceof DeliveryAbortedError || error instanceof TokenRejectedError) throw error;
    const failure = classifyFailure(error);
    if (failure.action === 'aborted' || signal?.aborted) throw new DeliveryAbortedError();
    if (failure.action === 'stop') throw new TokenRejectedError('sendmedia');
    const reason = error instanceof Error ? error.message : String(error);
    if (failure.action === 'drop') this.options.logger.warn({ ...context, reason }, 'media reply dropped: the service refused it');
    else this.options.logger.error({ ...context, reason }, 'media reply dropped after the last attempt');
    this.options.metrics?.error('reply_dropped');
    return { sent: 0, dropped: true };
  }

  /** The call for `action`; `fresh` uploads every local file even when a file_id is kept for it. */
  private async prepare(action: SendMediaAction, fresh: boolean): Promise<Call> {
    const params: Record<string, unknown> = commonParams(action);
    const files: Sent[] = [];
    const media = action.media;
    switch (media.kind) {
      case 'location':
        if (media.title === undefined) return { method: 'sendlocation', params: { ...params, latitude: media.latitude, longitude: media.longitude }, files };
        return {
          method: 'sendvenue',
          params: { ...params, latitude: media.latitude, longitude: media.longitude, title: media.title, address: media.address ?? '' },
          files,
        };
      case 'contact':
        return {
          method: 'sendcontact',
          params: { ...params, phone_number: media.phoneNumber, first_name: media.firstName, ...(media.lastName ? { last_name: media.lastName } : {}) },
          files,
        };
      case 'album': {
        delete params.reply_markup;
        const items: InputMediaParam[] = [];
        for (const [index, item] of media.items.entries()) {
          const input = await this.input(item.source, item.kind, fresh, files, index);
          const part = `file${index}`;
          if (typeof input !== 'string') params[part] = input;
          items.push({ type: item.kind, media: typeof input === 'string' ? input : `attach://${part}`, ...itemCaption(item.caption, action) });
        }
        return { method: 'sendmediagroup', params: { ...params, media: items }, files };
      }
      default: {
        if (action.caption !== undefined) params.caption = action.caption;
        if (action.caption !== undefined && action.parseMode) params.parse_mode = action.parseMode;
        params[media.kind] = await this.input(media.source, media.kind, fresh, files, 0);
        return { method: `send${media.kind}` as MethodName, params, files };
      }
    }
  }

  /** A file parameter for `source`: a URL or file_id as given, a kept file_id, or the file's bytes to upload. */
  private async input(source: MediaSource, kind: string, fresh: boolean, files: Sent[], index: number): Promise<InputFileParam> {
    if (source.kind === 'url') return source.url;
    if (source.kind === 'file_id') return source.fileId;
    const key = mediaKey(kind, source.hash);
    const kept = fresh ? undefined : await this.options.fileIds.get(key);
    if (kept !== undefined) {
      files.push({ key, field: kind, index, uploaded: false });
      return kept;
    }
    // Read at send time. Should the file have changed since the rules were loaded, the reload its change
    // causes gives it a new hash, and so a new upload.
    const upload: UploadedFile = { upload: await this.read(source.path), fileName: source.name };
    files.push({ key, field: kind, index, uploaded: true });
    return upload;
  }

  /** Keeps the file_id the service answered for every file uploaded in the call. */
  private async keepFileIds(files: readonly Sent[], messages: readonly Message[]): Promise<void> {
    for (const file of files) {
      if (!file.uploaded) continue;
      const message = messages[file.index] ?? messages[0];
      const fileId = message ? fileIdIn(message, file.field) : undefined;
      if (fileId === undefined) continue;
      try {
        await this.options.fileIds.remember(file.key, fileId);
      } catch (error) {
        // Only a later upload is lost: the reply went out.
        this.options.logger.warn({ reason: (error as Error).message }, 'could not keep the file_id of an uploaded file');
      }
    }
  }
}

/** chat_id, the reply, silence and markup, as every sending method takes them. */
function commonParams(action: SendMediaAction): Record<string, unknown> {
  const params: SendOptionsParams = { chat_id: action.chatId };
  if (action.disableNotification) params.disable_notification = true;
  if (action.replyToMessageId !== undefined) params.reply_parameters = { message_id: action.replyToMessageId, allow_sending_without_reply: true };
  if (action.replyMarkup) params.reply_markup = action.replyMarkup;
  return params as unknown as Record<string, unknown>;
}

function itemCaption(caption: string | undefined, action: SendMediaAction): Partial<InputMediaParam> {
  if (caption === undefined) return {};
  return action.parseMode ? { caption, parse_mode: action.parseMode } : { caption };
}

/** The file_id of the file a message carries in `field` (a photo's largest size). */
function fileIdIn(message: Message, field: string): string | undefined {
  const value = (message as unknown as Record<string, unknown>)[field];
  if (Array.isArray(value)) return (value[value.length - 1] as { file_id?: string } | undefined)?.file_id;
  return (value as { file_id?: string } | undefined)?.file_id;
}

function isRefusedFileId(error: unknown): boolean {
  return error instanceof ApiError && error.errorCode === 400 && NOT_CACHED.test(error.description);
}
