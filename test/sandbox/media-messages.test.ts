// Albums, places, contacts, forwards, copies, deletes and caption or media edits in the sandbox over real
// HTTP, with the results and refusals of the real service (as tdlib's telegram-bot-api words them).
import type { Message, MessageId } from '@grammyjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botHttp, type BotHttp } from '../support/bot-http.js';
import { png } from '../support/images.js';
import {
  chatMessages,
  createBotViaAssistant,
  createGroup,
  sendAsUser,
  startSandbox,
  type ClientMessage,
  type StartedSandbox,
} from '../support/sandbox-harness.js';

const ANN = { id: 8201, first_name: 'Ann' };
const BEN = { id: 8202, first_name: 'Ben' };

describe('albums, places, forwards, copies and edits in the sandbox', () => {
  let sandbox: StartedSandbox;
  let bot: BotHttp;
  let username: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    const created = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Desk', username: 'media_desk_bot' });
    bot = botHttp(sandbox.baseUrl, created.token);
    username = created.username;
    await sendAsUser(sandbox.baseUrl, ANN, username, '/start');
    await sendAsUser(sandbox.baseUrl, BEN, username, '/start');
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('sends an album of uploaded parts as messages sharing a media_group_id, and refuses what the service refuses', async () => {
    const media = [
      { type: 'photo', media: 'attach://a', caption: 'Front' },
      { type: 'photo', media: 'attach://b' },
      { type: 'video', media: 'attach://c' },
    ];
    const files = { a: { data: png(10, 10), name: 'a.png' }, b: { data: png(12, 10), name: 'b.png' }, c: { data: Buffer.from('video'), name: 'c.mp4' } };
    const album = await bot.call<Message[]>('sendMediaGroup', { chat_id: ANN.id, media }, files);
    expect(album).toHaveLength(3);
    const group = album[0]!.media_group_id;
    expect(group).toMatch(/^\d+$/);
    expect(album.every((message) => message.media_group_id === group)).toBe(true);
    expect(album[0]).toMatchObject({ caption: 'Front', photo: [{ width: 10 }] });
    expect(album[2]).toMatchObject({ video: { file_name: 'c.mp4' } });

    const photo = album[0]!.photo![0]!.file_id;
    const mixed = [
      { type: 'photo', media: photo },
      { type: 'document', media: 'attach://d' },
    ];
    expect(await bot.refusal('sendMediaGroup', { chat_id: ANN.id, media: mixed }, { d: { data: Buffer.from('x'), name: 'd.txt' } })).toBe(
      "Bad Request: document can't be mixed with other media types",
    );
    const eleven = Array.from({ length: 11 }, () => ({ type: 'photo', media: photo }));
    expect(await bot.refusal('sendMediaGroup', { chat_id: ANN.id, media: eleven })).toBe('Bad Request: too many messages to send as an album');
    expect(await bot.refusal('sendMediaGroup', { chat_id: ANN.id, media: [{ type: 'animation', media: photo }] })).toBe(
      `Bad Request: can't parse InputMedia: type "animation" can't be used in sendMediaGroup`,
    );
    expect(await bot.refusal('sendMediaGroup', { chat_id: ANN.id, media: [{ type: 'photo', media: 'attach://missing' }] })).toBe(
      "Bad Request: can't parse InputMedia: media not found",
    );
    expect(await bot.refusal('sendMediaGroup', { chat_id: ANN.id, media: 'not json' })).toBe("Bad Request: can't parse media JSON object");
  });

  it("sends a location, a venue and a contact, with the service's checks", async () => {
    const location = await bot.call<Message.LocationMessage>('sendLocation', { chat_id: ANN.id, latitude: 52.52, longitude: 13.405 });
    expect(location.location).toEqual({ latitude: 52.52, longitude: 13.405 });
    const venue = await bot.call<Message.VenueMessage>('sendVenue', {
      chat_id: ANN.id,
      latitude: 52.52,
      longitude: 13.405,
      title: 'Pixel Print',
      address: 'Torstr. 1',
    });
    expect(venue).toMatchObject({
      location: { latitude: 52.52 },
      venue: { location: { latitude: 52.52, longitude: 13.405 }, title: 'Pixel Print', address: 'Torstr. 1' },
    });
    const contact = await bot.call<Message.ContactMessage>('sendContact', { chat_id: ANN.id, phone_number: '+4930123', first_name: 'Front desk' });
    expect(contact.contact).toEqual({ phone_number: '+4930123', first_name: 'Front desk' });
    expect(await bot.refusal('sendLocation', { chat_id: ANN.id, longitude: 1 })).toBe('Bad Request: latitude is empty');
    expect(await bot.refusal('sendLocation', { chat_id: ANN.id, latitude: 95, longitude: 1 })).toBe('Bad Request: invalid location specified');
    expect(await bot.refusal('sendContact', { chat_id: ANN.id, phone_number: '1' })).toBe('Bad Request: parameter "first_name" is required');
  });

  it('forwards and copies messages between chats, with message_thread_id accepted, and refuses missing or service messages', async () => {
    const original = await bot.call<Message.PhotoMessage>(
      'sendPhoto',
      { chat_id: ANN.id, caption: 'old caption' },
      { photo: { data: png(9, 9), name: 'p.png' } },
    );
    const forward = await bot.call<Message>('forwardMessage', { chat_id: BEN.id, from_chat_id: ANN.id, message_id: original.message_id, message_thread_id: 5 });
    expect(forward).toMatchObject({
      chat: { id: BEN.id },
      caption: 'old caption',
      forward_origin: { type: 'user', sender_user: { username: username }, date: original.date },
      forward_date: original.date,
      photo: [{ file_unique_id: original.photo[0]!.file_unique_id }],
    });
    const copy = await bot.call<MessageId>('copyMessage', {
      chat_id: BEN.id,
      from_chat_id: ANN.id,
      message_id: original.message_id,
      caption: '<i>new</i>',
      parse_mode: 'HTML',
    });
    const copied = (await chatMessages(sandbox.baseUrl, BEN.id, username)).find((message) => message.message_id === copy.message_id)!;
    expect(copied).toMatchObject({ caption: 'new', caption_entities: [{ type: 'italic', offset: 0, length: 3 }] });
    expect(copied).not.toHaveProperty('forward_origin');

    const text = await bot.call<Message.TextMessage>('sendMessage', { chat_id: ANN.id, text: 'two' });
    const ids = await bot.call<MessageId[]>('copyMessages', {
      chat_id: BEN.id,
      from_chat_id: ANN.id,
      message_ids: [text.message_id, 99_999, original.message_id],
    });
    expect(ids).toHaveLength(2);
    const forwarded = await bot.call<MessageId[]>('forwardMessages', { chat_id: BEN.id, from_chat_id: ANN.id, message_ids: [original.message_id] });
    expect(forwarded).toHaveLength(1);

    expect(await bot.refusal('forwardMessage', { chat_id: BEN.id, from_chat_id: ANN.id, message_id: 99_999 })).toBe(
      'Bad Request: message to forward not found',
    );
    expect(await bot.refusal('copyMessage', { chat_id: BEN.id, from_chat_id: ANN.id, message_id: 99_999 })).toBe('Bad Request: message to copy not found');
    expect(await bot.refusal('copyMessage', { chat_id: BEN.id, message_id: 1 })).toBe('Bad Request: parameter "from_chat_id" is required');
    expect(await bot.refusal('copyMessages', { chat_id: BEN.id, from_chat_id: ANN.id, message_ids: [] })).toBe(
      'Bad Request: message identifiers are not specified',
    );

    const groupId = await createGroup(sandbox.baseUrl, { title: 'Desk', members: [ANN], bots: [username] });
    await fetch(`${sandbox.baseUrl}/client/groups/${groupId}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: BEN }),
    });
    // Ben's joining is the group's first message: a service message, which has no content to forward.
    const serviceId = 1;
    expect(await bot.refusal('forwardMessage', { chat_id: ANN.id, from_chat_id: groupId, message_id: serviceId })).toBe(
      "Bad Request: message can't be forwarded",
    );
  });

  it('edits a caption and a photo in place, keeps the earlier version, deletes several messages at once', async () => {
    const sent = await bot.call<Message.PhotoMessage>('sendPhoto', { chat_id: ANN.id, caption: 'draft' }, { photo: { data: png(5, 5), name: 'p.png' } });
    const edited = await bot.call<Message.PhotoMessage>('editMessageCaption', { chat_id: ANN.id, message_id: sent.message_id, caption: 'final' });
    expect(edited).toMatchObject({ caption: 'final', edit_date: expect.any(Number) });
    expect(await bot.refusal('editMessageCaption', { chat_id: ANN.id, message_id: sent.message_id, caption: 'final' })).toMatch(
      /^Bad Request: message is not modified/,
    );
    const text = await bot.call<Message.TextMessage>('sendMessage', { chat_id: ANN.id, text: 'plain' });
    expect(await bot.refusal('editMessageCaption', { chat_id: ANN.id, message_id: text.message_id, caption: 'x' })).toBe(
      'Bad Request: there is no caption in the message to edit',
    );
    expect(
      await bot.refusal('editMessageMedia', { chat_id: ANN.id, message_id: text.message_id, media: { type: 'photo', media: sent.photo[0]!.file_id } }),
    ).toBe("Bad Request: message media can't be edited");

    const replaced = await bot.call<Message.DocumentMessage>(
      'editMessageMedia',
      { chat_id: ANN.id, message_id: sent.message_id, media: { type: 'document', media: 'attach://doc', caption: 'as a file' } },
      { doc: { data: Buffer.from('%PDF-1.4'), name: 'menu.pdf' } },
    );
    expect(replaced).toMatchObject({ document: { file_name: 'menu.pdf', mime_type: 'application/pdf' }, caption: 'as a file' });
    expect(replaced).not.toHaveProperty('photo');
    const shown = (await chatMessages(sandbox.baseUrl, ANN.id, username)).find((message) => message.message_id === sent.message_id) as ClientMessage & {
      edits: Array<Record<string, unknown>>;
    };
    expect(shown.edits[0]).toMatchObject({ caption: 'draft' });
    expect(shown.edits[1]).toMatchObject({ caption: 'final', photo: [{ width: 5 }] });

    const one = await bot.call<Message>('sendMessage', { chat_id: ANN.id, text: 'one' });
    const two = await bot.call<Message>('sendMessage', { chat_id: ANN.id, text: 'two' });
    expect(await bot.call('deleteMessages', { chat_id: ANN.id, message_ids: [one.message_id, two.message_id, 99_999] })).toBe(true);
    const left = (await chatMessages(sandbox.baseUrl, ANN.id, username)).map((message) => message.message_id);
    expect(left).not.toContain(one.message_id);
    expect(left).not.toContain(two.message_id);
    expect(await bot.refusal('deleteMessages', { chat_id: ANN.id, message_ids: '[1,' })).toBe("Bad Request: can't parse message_ids JSON object");
  });
});
