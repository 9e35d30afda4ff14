// Media users send, end to end: the real service in this process, polling the sandbox over real HTTP. A user
// sends a photo with a caption and a location through the client API; rules answer them with what the message
// carries ({{message.caption}}, {{message.latitude}}), the photo is forwarded to the staff chat named in the
// configuration, and a flow step that asks for a photo keeps its file_id.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@grammyjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { png } from '../support/images.js';
import { chatMessages, createBotViaAssistant, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';

const USER = { id: 8701, first_name: 'Kim' };
const STAFF = { id: 8702, first_name: 'Sam' };

const RULES = `rules:
  - id: damage
    event: photo
    reply: "Thanks {{user.first_name}}, we got your photo: {{message.caption}}"
    forward: staff
  - id: where
    event: location
    reply: "You are at {{message.latitude}}, {{message.longitude}}."
flows:
  - id: report
    start: { command: report }
    steps:
      - id: picture
        ask: "Send us a photo of the problem."
        accept: { photo: true }
        retry: "A photo, please."
    done:
      - reply: "Reported, photo {{flow.picture}}."
        photo: "{{flow.picture}}"
        caption: "This is the photo we keep."
`;

async function sendMedia(baseUrl: string, to: string, fields: object): Promise<{ message_id: number }> {
  const response = await fetch(`${baseUrl}/client/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: USER, to, ...fields }),
  });
  const envelope = (await response.json()) as { ok: boolean; result: { message_id: number }; description?: string };
  if (!envelope.ok) throw new Error(envelope.description);
  return envelope.result;
}

describe('media users send, end to end', () => {
  let sandbox: StartedSandbox;
  let bot: { token: string; username: string };
  let service: RunningService;

  beforeAll(async () => {
    sandbox = await startSandbox();
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Repairs', username: 'media_repairs_bot' });
    const rulesDir = await mkdtemp(join(tmpdir(), 'hearsay-incoming-rules-'));
    const configDir = await mkdtemp(join(tmpdir(), 'hearsay-incoming-config-'));
    await writeFile(join(rulesDir, 'bot.yaml'), RULES);
    await writeFile(join(configDir, 'hearsay.yaml'), `chats:\n  staff: ${STAFF.id}\n`);
    // The staff member has talked to the bot, so the bot may write to them.
    await sendAsUser(sandbox.baseUrl, STAFF, bot.username, 'hello');
    const config = await loadConfig({
      cwd: configDir,
      env: {
        BOT_TOKEN: bot.token,
        BASE_URL: sandbox.baseUrl,
        HEARSAY_RULES: rulesDir,
        HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-incoming-data-')),
        HEARSAY_POLLING_TIMEOUT: '1',
      },
      secrets: new Secrets(),
    });
    service = await startService(config, { logger: createLogger({ level: 'silent' }) });
  });
  afterAll(async () => {
    await service?.stop();
    await sandbox.close();
  });

  const replies = (after: number, count = 1) => waitForBotReplies(sandbox.baseUrl, { userId: USER.id, bot: bot.username, after, count, timeoutMs: 8000 });

  it('answers a photo with its caption and forwards it to the staff chat', async () => {
    const sent = await sendMedia(sandbox.baseUrl, bot.username, {
      photo: { data: png(30, 20).toString('base64'), file_name: 'door.png' },
      caption: 'the door',
    });
    const [reply] = await replies(sent.message_id);
    expect(reply).toMatchObject({ text: 'Thanks Kim, we got your photo: the door' });
    let forwarded: Message | undefined;
    for (let i = 0; i < 40 && !forwarded; i++) {
      forwarded = (await chatMessages(sandbox.baseUrl, STAFF.id, bot.username, 0, 1)).find((m) => m.photo !== undefined);
    }
    expect(forwarded).toMatchObject({
      caption: 'the door',
      forward_origin: { type: 'user', sender_user: { id: USER.id } },
      photo: [{ width: 30, height: 20 }],
    });
  });

  it('answers a location with its coordinates', async () => {
    const sent = await sendMedia(sandbox.baseUrl, bot.username, { location: { latitude: 52.52, longitude: 13.405 } });
    expect(await replies(sent.message_id)).toMatchObject([{ text: 'You are at 52.52, 13.405.' }]);
  });

  it("keeps a flow step's photo as its file_id, and sends it back from the done branch", async () => {
    const start = await sendAsUser(sandbox.baseUrl, USER, bot.username, '/report');
    expect(await replies(start.message_id)).toMatchObject([{ text: 'Send us a photo of the problem.' }]);
    const text = await sendAsUser(sandbox.baseUrl, USER, bot.username, 'it is broken');
    expect(await replies(text.message_id)).toMatchObject([{ text: 'A photo, please.' }]);
    const sent = await sendMedia(sandbox.baseUrl, bot.username, { photo: { data: png(40, 30).toString('base64') } });
    const [done, back] = await replies(sent.message_id, 2);
    expect(done!.text).toMatch(/^Reported, photo [A-Za-z0-9_-]{20,}\.$/);
    // The kept file_id sends the same photo back: the user sees it, as they sent it, under the bot's caption.
    expect(back).toMatchObject({ caption: 'This is the photo we keep.', photo: [{ width: 40, height: 30 }] });
  });
});
