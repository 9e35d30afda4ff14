// The media sender against the sandbox over real HTTP: a file next to the rules is uploaded once (multipart)
// and sent by the file_id the service gave from then on; a kept file_id the service refuses is forgotten and
// the file uploaded again; an album goes as one sendMediaGroup with its uploads attached; places and contacts
// use their methods; a refusal drops the message without throwing.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@grammyjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotApiClient } from '../../src/api/client.js';
import { MediaSender } from '../../src/delivery/media-sender.js';
import { MemoryMediaFileIds, mediaKey } from '../../src/delivery/media-file-ids.js';
import type { MediaSource } from '../../src/engine/media.js';
import { createLogger } from '../../src/log/logger.js';
import { png } from '../support/images.js';
import { chatMessages, createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const USER = { id: 8501, first_name: 'Mo' };

describe('the media sender', () => {
  let sandbox: StartedSandbox;
  let api: BotApiClient;
  let username: string;
  let dir: string;
  const calls: Array<{ method: string; params: Record<string, unknown> }> = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Media', username: 'media_sender_bot' });
    username = bot.username;
    api = new BotApiClient({ baseUrl: sandbox.baseUrl, token: bot.token });
    await sendAsUser(sandbox.baseUrl, USER, username, '/start');
    sandbox.sandbox.onBotApiCall((event) => calls.push({ method: event.method, params: event.params }));
    dir = await mkdtemp(join(tmpdir(), 'hearsay-media-sender-'));
  });
  afterAll(async () => {
    await api.close();
    await sandbox.close();
  });

  const logger = createLogger({ level: 'silent' });
  const fileSource = async (name: string, data: Buffer, hash: string): Promise<MediaSource> => {
    const path = join(dir, name);
    await writeFile(path, data);
    return { kind: 'file', path, name, hash, size: data.length };
  };
  /** Whether the last call of `method` uploaded `field` (a multipart part) rather than naming a file_id. */
  const uploaded = (method: string, field: string) => {
    const call = calls.filter((entry) => entry.method === method).at(-1)!;
    return typeof call.params[field] !== 'string';
  };

  it('uploads a local photo once and sends it by its file_id afterwards, with caption and buttons', async () => {
    const fileIds = new MemoryMediaFileIds();
    const sender = new MediaSender({ api, fileIds, logger });
    const source = await fileSource('menu.png', png(20, 10), 'hash-menu');
    const markup = { inline_keyboard: [[{ text: 'Order', callback_data: 'order' }]] };
    const action = {
      type: 'send_media' as const,
      chatId: USER.id,
      media: { kind: 'photo' as const, source },
      caption: '<b>Menu</b>',
      parseMode: 'HTML' as const,
      replyMarkup: markup,
    };
    expect(await sender.send(action, 'menu')).toMatchObject({ sent: 1, dropped: false });
    expect(uploaded('sendphoto', 'photo')).toBe(true);
    const kept = await fileIds.get(mediaKey('photo', 'hash-menu'));
    expect(kept).toMatch(/^AgAC/);
    expect(await sender.send(action, 'menu')).toMatchObject({ sent: 1, dropped: false });
    expect(uploaded('sendphoto', 'photo')).toBe(false);
    const photos = (await chatMessages(sandbox.baseUrl, USER.id, username)).filter((message) => message.photo) as Message.PhotoMessage[];
    expect(photos).toHaveLength(2);
    expect(photos[1]).toMatchObject({ caption: 'Menu', caption_entities: [{ type: 'bold', offset: 0, length: 4 }], reply_markup: markup });
    expect(photos[1]!.photo[0]!.file_unique_id).toBe(photos[0]!.photo[0]!.file_unique_id);
  });

  it('forgets a kept file_id the service refuses and uploads the file again at once', async () => {
    const fileIds = new MemoryMediaFileIds();
    const data = Buffer.from('%PDF-1.4 terms');
    const source = await fileSource('terms.pdf', data, 'hash-terms');
    await fileIds.remember(mediaKey('document', 'hash-terms'), 'BQACAgIAAxkBAAIBogusBogusBogusBogusBogusBogusBogusBogus');
    const sender = new MediaSender({ api, fileIds, logger });
    expect(await sender.send({ type: 'send_media', chatId: USER.id, media: { kind: 'document', source } }, 'terms')).toMatchObject({ sent: 1, dropped: false });
    expect(uploaded('senddocument', 'document')).toBe(true);
    // Kept anew under the same key: the file_id of the new upload.
    expect(await fileIds.get(mediaKey('document', 'hash-terms'))).toMatch(/^BQAC/);
    expect(await fileIds.get(mediaKey('document', 'hash-terms'))).not.toBe('BQACAgIAAxkBAAIBogusBogusBogusBogusBogusBogusBogusBogus');
  });

  it('sends an album with its uploads attached, a venue, a location and a contact', async () => {
    const fileIds = new MemoryMediaFileIds();
    const sender = new MediaSender({ api, fileIds, logger });
    const a = await fileSource('a.png', png(3, 3), 'ha');
    const b = await fileSource('b.png', png(4, 4), 'hb');
    const album = {
      kind: 'album' as const,
      items: [
        { kind: 'photo' as const, source: a, caption: 'first' },
        { kind: 'photo' as const, source: b },
      ],
    };
    expect(await sender.send({ type: 'send_media', chatId: USER.id, media: album }, 'gallery')).toMatchObject({ sent: 2, dropped: false });
    const venue = { kind: 'location' as const, latitude: 52.52, longitude: 13.405, title: 'Pixel Print', address: 'Torstr. 1' };
    expect(await sender.send({ type: 'send_media', chatId: USER.id, media: venue }, 'where')).toMatchObject({ sent: 1, dropped: false });
    const point = { kind: 'location' as const, latitude: 1.5, longitude: 2.5 };
    expect(await sender.send({ type: 'send_media', chatId: USER.id, media: point }, 'where')).toMatchObject({ sent: 1, dropped: false });
    const contact = { kind: 'contact' as const, phoneNumber: '+4930', firstName: 'Desk' };
    expect(await sender.send({ type: 'send_media', chatId: USER.id, media: contact }, 'call')).toMatchObject({ sent: 1, dropped: false });
    const messages = (await chatMessages(sandbox.baseUrl, USER.id, username)).slice(-5);
    expect(messages[0]).toMatchObject({ caption: 'first', media_group_id: messages[1]!.media_group_id });
    expect(messages[2]).toMatchObject({ venue: { title: 'Pixel Print', address: 'Torstr. 1' } });
    expect(messages[3]).toMatchObject({ location: { latitude: 1.5, longitude: 2.5 } });
    expect(messages[4]).toMatchObject({ contact: { phone_number: '+4930', first_name: 'Desk' } });
  });

  it('drops a message the service refuses, and says so', async () => {
    const sender = new MediaSender({ api, fileIds: new MemoryMediaFileIds(), logger });
    const outcome = await sender.send(
      { type: 'send_media', chatId: 424242, media: { kind: 'photo', source: { kind: 'url', url: 'https://example.com/a.jpg' } } },
      'x',
    );
    expect(outcome).toEqual({ sent: 0, dropped: true });
  });
});
