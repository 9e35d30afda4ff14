// Files through the sandbox's Bot API over real HTTP: multipart uploads with the service's limits and
// descriptions, file ids that look like the service's, reuse by file_id (and refusal across bots), getFile and
// the download path, a URL kept as a documented placeholder, and the user's download from the client API.
import type { File, Message, Update } from '@grammyjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botHttp, type BotHttp } from '../support/bot-http.js';
import { png } from '../support/images.js';
import { createBotViaAssistant, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const USER = { id: 8101, first_name: 'Ida' };
const MB = 1024 * 1024;

describe('uploads and files in the sandbox', () => {
  let sandbox: StartedSandbox;
  let shop: BotHttp;
  let other: BotHttp;

  beforeAll(async () => {
    sandbox = await startSandbox();
    const first = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Shop', username: 'media_shop_bot' });
    const second = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Other', username: 'media_other_bot' });
    shop = botHttp(sandbox.baseUrl, first.token);
    other = botHttp(sandbox.baseUrl, second.token);
    await sendAsUser(sandbox.baseUrl, USER, first.username, '/start');
    await sendAsUser(sandbox.baseUrl, USER, second.username, '/start');
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it("takes a photo as a multipart upload and answers a Message with its sizes, caption and a file id like the service's", async () => {
    const image = png(64, 48);
    const sent = await shop.call<Message.PhotoMessage>(
      'sendPhoto',
      { chat_id: USER.id, caption: '<b>Today</b> at https://example.com', parse_mode: 'HTML' },
      { photo: { data: image, name: 'menu.png', type: 'image/png' } },
    );
    expect(sent.photo).toHaveLength(1);
    expect(sent.photo[0]).toMatchObject({ width: 64, height: 48, file_size: image.length });
    expect(sent.photo[0]!.file_id).toMatch(/^AgAC[A-Za-z0-9_-]{60,}$/);
    expect(sent.photo[0]!.file_unique_id).toMatch(/^AQAD[A-Za-z0-9_-]+$/);
    expect(sent.caption).toBe('Today at https://example.com');
    expect(sent.caption_entities).toEqual([
      { type: 'bold', offset: 0, length: 5 },
      { type: 'url', offset: 9, length: 19 },
    ]);

    // Sent again by file_id: the same file (same unique id), no upload.
    const again = await shop.call<Message.PhotoMessage>('sendPhoto', { chat_id: USER.id, photo: sent.photo[0]!.file_id });
    expect(again.photo[0]).toMatchObject({ file_id: sent.photo[0]!.file_id, file_unique_id: sent.photo[0]!.file_unique_id });

    // getFile gives the path to download the very bytes from.
    const file = await shop.call<File>('getFile', { file_id: sent.photo[0]!.file_id });
    expect(file).toMatchObject({ file_id: sent.photo[0]!.file_id, file_unique_id: sent.photo[0]!.file_unique_id, file_size: image.length });
    expect(file.file_path).toMatch(/^photos\/file_\d+\.png$/);
    const downloaded = await shop.download(file.file_path!);
    expect(downloaded.status).toBe(200);
    expect(downloaded.data.equals(image)).toBe(true);
    expect((await other.download(file.file_path!)).status).toBe(404);

    // The user downloads it from the client API, as their app would.
    const response = await fetch(`${sandbox.baseUrl}/client/file?user=${USER.id}&file_id=${encodeURIComponent(sent.photo[0]!.file_id)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(image)).toBe(true);
    const stranger = await fetch(`${sandbox.baseUrl}/client/file?user=999&file_id=${encodeURIComponent(sent.photo[0]!.file_id)}`);
    expect(stranger.status).toBe(400);
  });

  it("refuses another bot's file id and a photo sent as a document, with the service's descriptions", async () => {
    const sent = await shop.call<Message.PhotoMessage>('sendPhoto', { chat_id: USER.id }, { photo: { data: png(8, 8), name: 'a.png' } });
    const id = sent.photo[0]!.file_id;
    expect(await other.refusal('sendPhoto', { chat_id: USER.id, photo: id })).toBe('Bad Request: wrong file identifier/HTTP URL specified');
    expect(await other.refusal('getFile', { file_id: id })).toBe('Bad Request: wrong file_id or the file is temporarily unavailable');
    expect(await shop.refusal('sendDocument', { chat_id: USER.id, document: id })).toBe("Bad Request: can't use file of type Photo as Document");
    expect(await shop.refusal('getFile', { file_id: 'AgACnotanid' })).toBe('Bad Request: invalid file_id');
    expect(await shop.refusal('getFile', {})).toBe('Bad Request: file_id not specified');
    const doc = await shop.call<Message.DocumentMessage>('sendDocument', { chat_id: USER.id }, { document: { data: Buffer.from('hello'), name: 'notes.txt' } });
    expect(doc.document).toMatchObject({ file_name: 'notes.txt', mime_type: 'text/plain', file_size: 5 });
    expect(doc.document.file_id).toMatch(/^BQAC/);
    expect(await shop.refusal('sendPhoto', { chat_id: USER.id, photo: doc.document.file_id })).toBe("Bad Request: can't use file of type Document as Photo");
  });

  it("keeps the service's upload limits: a photo up to 10 MB, any file up to 50 MB, no empty file, an image for a photo", async () => {
    const bigPhoto = Buffer.concat([png(4, 4), Buffer.alloc(10 * MB)]);
    expect(await shop.refusal('sendPhoto', { chat_id: USER.id }, { photo: { data: bigPhoto, name: 'big.png' } })).toBe(
      `Bad Request: file of size ${bigPhoto.length} bytes is too big for a photo; the maximum size is ${10 * MB} bytes`,
    );
    const huge = Buffer.alloc(50 * MB + 1);
    expect(await shop.refusal('sendDocument', { chat_id: USER.id }, { document: { data: huge, name: 'huge.bin' } }, 413)).toBe('Request Entity Too Large');
    const fits = await shop.call<Message.DocumentMessage>(
      'sendDocument',
      { chat_id: USER.id },
      { document: { data: Buffer.alloc(21 * MB, 1), name: 'big.bin' } },
    );
    expect(fits.document.file_size).toBe(21 * MB);
    expect(await shop.refusal('getFile', { file_id: fits.document.file_id })).toBe('Bad Request: file is too big');
    expect(await shop.refusal('sendDocument', { chat_id: USER.id }, { document: { data: Buffer.alloc(0), name: 'empty.txt' } })).toBe(
      'Bad Request: file must be non-empty',
    );
    expect(await shop.refusal('sendPhoto', { chat_id: USER.id }, { photo: { data: Buffer.from('not an image'), name: 'x.jpg' } })).toBe(
      'Bad Request: IMAGE_PROCESS_FAILED',
    );
    expect(await shop.refusal('sendPhoto', { chat_id: USER.id })).toBe('Bad Request: there is no photo in the request');
    expect(await shop.refusal('sendVoice', { chat_id: USER.id })).toBe('Bad Request: there is no voice in the request');
    expect(await shop.refusal('sendDocument', { chat_id: USER.id, caption: 'x'.repeat(1025) }, { document: { data: Buffer.from('a'), name: 'a.txt' } })).toBe(
      'Bad Request: message caption is too long',
    );
  });

  it('sends every kind of file with the fields the service gives it, "attach://" parts included', async () => {
    const bytes = Buffer.from('RIFF....fake media bytes');
    const video = await shop.call<Message.VideoMessage>(
      'sendVideo',
      { chat_id: USER.id, duration: 12, width: 640, height: 360 },
      { video: { data: bytes, name: 'clip.mp4' } },
    );
    expect(video.video).toMatchObject({ duration: 12, width: 640, height: 360, file_name: 'clip.mp4', mime_type: 'video/mp4' });
    const audio = await shop.call<Message.AudioMessage>(
      'sendAudio',
      { chat_id: USER.id, title: 'Jingle', performer: 'Pixel' },
      { audio: { data: bytes, name: 'jingle.mp3' } },
    );
    expect(audio.audio).toMatchObject({ duration: 0, title: 'Jingle', performer: 'Pixel', mime_type: 'audio/mpeg' });
    const voice = await shop.call<Message.VoiceMessage>(
      'sendVoice',
      { chat_id: USER.id, duration: 3, voice: 'attach://note' },
      { note: { data: bytes, name: 'note.ogg' } },
    );
    expect(voice.voice).toMatchObject({ duration: 3, mime_type: 'audio/ogg' });
    expect(voice.voice.file_id).toMatch(/^AwAC/);
    const animation = await shop.call<Message.AnimationMessage>('sendAnimation', { chat_id: USER.id }, { animation: { data: bytes, name: 'wave.mp4' } });
    expect(animation.animation).toMatchObject({ file_name: 'wave.mp4', duration: 0 });
    expect(animation.document).toMatchObject({ file_id: animation.animation.file_id, file_name: 'wave.mp4' });
    const sticker = await shop.call<Message.StickerMessage>(
      'sendSticker',
      { chat_id: USER.id, emoji: '👍' },
      { sticker: { data: png(512, 512), name: 's.webp' } },
    );
    expect(sticker.sticker).toMatchObject({ width: 512, height: 512, emoji: '👍', is_animated: false, is_video: false, type: 'regular' });
  });

  it('keeps a file sent by URL as a placeholder that names the URL (the sandbox fetches nothing)', async () => {
    const sent = await shop.call<Message.DocumentMessage>('sendDocument', { chat_id: USER.id, document: 'https://example.com/files/price%20list.pdf' });
    expect(sent.document).toMatchObject({ file_name: 'price list.pdf', mime_type: 'application/pdf' });
    const file = await shop.call<File>('getFile', { file_id: sent.document.file_id });
    const downloaded = await shop.download(file.file_path!);
    expect(downloaded.data.toString()).toContain('https://example.com/files/price%20list.pdf');
    const photo = await shop.call<Message.PhotoMessage>('sendPhoto', { chat_id: USER.id, photo: 'https://example.com/menu.jpg' });
    expect(photo.photo[0]).toMatchObject({ width: 320, height: 240 });
    expect(await shop.refusal('sendPhoto', { chat_id: USER.id, photo: 'ftp://example.com/a.jpg' })).toBe(
      'Bad Request: invalid file HTTP URL specified: Unsupported URL protocol',
    );
  });

  it("shows the bot a photo the user sent with the bot's own file id, which it can download and send back", async () => {
    const image = png(30, 20, [10, 120, 10]);
    await fetch(`${sandbox.baseUrl}/client/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user: USER,
        to: 'media_shop_bot',
        photo: { data: image.toString('base64'), file_name: 'damage.png' },
        caption: 'the box is torn',
      }),
    });
    const updates = await shop.call<Update[]>('getUpdates', {});
    const message = updates.at(-1)!.message as Message.PhotoMessage;
    expect(message).toMatchObject({ caption: 'the box is torn', photo: [{ width: 30, height: 20 }] });
    const id = message.photo[0]!.file_id;
    const file = await shop.call<File>('getFile', { file_id: id });
    expect((await shop.download(file.file_path!)).data.equals(image)).toBe(true);
    const echoed = await shop.call<Message.PhotoMessage>('sendPhoto', { chat_id: USER.id, photo: id });
    expect(echoed.photo[0]!.file_unique_id).toBe(message.photo[0]!.file_unique_id);
    // The other bot knows the file by another id (and cannot use this one).
    expect(await other.refusal('sendPhoto', { chat_id: USER.id, photo: id })).toBe('Bad Request: wrong file identifier/HTTP URL specified');
  });
});
