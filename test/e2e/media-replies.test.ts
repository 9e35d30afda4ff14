// Media replies end to end: the real service in this process, polling the sandbox over real HTTP, with rules
// that send a photo next to the rules, a document, a venue and a sequence. A local file is uploaded once and
// sent by its file_id afterwards, also after a restart (the file_id is kept in the store); an edited file is
// noticed by hot reload and uploaded again.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@grammyjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { png } from '../support/images.js';
import { createBotViaAssistant, sendAsUser, startSandbox, waitForBotReplies, type StartedSandbox } from '../support/sandbox-harness.js';

const USER = { id: 8601, first_name: 'Kim' };

const RULES = `rules:
  - id: menu
    command: menu
    photo: media/menu.png
    caption: "Today's menu, {{user.first_name}}"
    buttons: [[{ text: "Order", data: "order" }]]
  - id: terms
    command: terms
    reply: "Our terms:"
    document: media/terms.pdf
  - id: where
    keywords: [where are you]
    location: { latitude: 52.52, longitude: 13.405, title: "Pixel Print", address: "Torstr. 1" }
  - id: tour
    command: tour
    messages:
      - "Welcome!"
      - { photo: media/menu.png, caption: "The menu" }
      - { contact: { phone_number: "+49301234", first_name: "Front desk" } }
`;

describe('media replies from rules, end to end', () => {
  let sandbox: StartedSandbox;
  let bot: { token: string; username: string };
  let rulesDir: string;
  let dataDir: string;
  let service: RunningService | undefined;
  const uploads: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
    bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 1, name: 'Cafe', username: 'media_cafe_bot' });
    rulesDir = await mkdtemp(join(tmpdir(), 'hearsay-media-rules-'));
    dataDir = await mkdtemp(join(tmpdir(), 'hearsay-media-data-'));
    await mkdir(join(rulesDir, 'media'));
    await writeFile(join(rulesDir, 'media', 'menu.png'), png(60, 40));
    await writeFile(join(rulesDir, 'media', 'terms.pdf'), '%PDF-1.4 terms');
    await writeFile(join(rulesDir, 'bot.yaml'), RULES);
    // Which calls uploaded a file (a multipart part) rather than naming a file_id.
    sandbox.sandbox.onBotApiCall(({ method, params }) => {
      for (const field of ['photo', 'document']) if (params[field] !== undefined && typeof params[field] !== 'string') uploads.push(`${method}:${field}`);
    });
  });
  afterAll(async () => {
    await service?.stop();
    await sandbox.close();
  });

  const start = async () => {
    const config = await loadConfig({
      cwd: rulesDir,
      env: { BOT_TOKEN: bot.token, BASE_URL: sandbox.baseUrl, HEARSAY_RULES: rulesDir, HEARSAY_DATA_DIR: dataDir, HEARSAY_POLLING_TIMEOUT: '1' },
      secrets: new Secrets(),
    });
    return startService(config, { logger: createLogger({ level: 'silent' }), ruleDebounceMs: 50 });
  };
  const ask = async (text: string, count = 1): Promise<Message[]> => {
    const sent = await sendAsUser(sandbox.baseUrl, USER, bot.username, text);
    return waitForBotReplies(sandbox.baseUrl, { userId: USER.id, bot: bot.username, after: sent.message_id, count, timeoutMs: 8000 });
  };

  it('sends a photo with its caption and buttons, uploaded once and then by file_id, also after a restart', async () => {
    service = await start();
    const [first] = (await ask('/menu')) as Message.PhotoMessage[];
    expect(first).toMatchObject({
      caption: "Today's menu, Kim",
      photo: [{ width: 60, height: 40 }],
      reply_markup: { inline_keyboard: [[{ text: 'Order', callback_data: 'order' }]] },
    });
    expect(uploads).toEqual(['sendphoto:photo']);
    const [second] = (await ask('/menu')) as Message.PhotoMessage[];
    expect(second!.photo[0]!.file_unique_id).toBe(first!.photo[0]!.file_unique_id);
    expect(uploads).toEqual(['sendphoto:photo']);

    await service.stop();
    service = await start();
    const [third] = (await ask('/menu')) as Message.PhotoMessage[];
    expect(third!.photo[0]!.file_unique_id).toBe(first!.photo[0]!.file_unique_id);
    expect(uploads).toEqual(['sendphoto:photo']);
  });

  it('sends a text and then a document, a venue, and a sequence of a text, a photo and a contact', async () => {
    const [text, document] = await ask('/terms', 2);
    expect(text).toMatchObject({ text: 'Our terms:' });
    expect(document).toMatchObject({ document: { file_name: 'terms.pdf', mime_type: 'application/pdf' } });
    const [venue] = await ask('where are you?');
    expect(venue).toMatchObject({ venue: { title: 'Pixel Print', address: 'Torstr. 1', location: { latitude: 52.52, longitude: 13.405 } } });
    const tour = await ask('/tour', 3);
    expect(tour.map((message) => message.text ?? message.caption ?? message.contact?.first_name)).toEqual(['Welcome!', 'The menu', 'Front desk']);
  });

  it('notices an edited photo (hot reload) and uploads it again', async () => {
    const reloaded = new Promise<void>((resolve) => {
      const stop = service!.onRuleReload((problems) => {
        if (problems.length === 0) {
          stop();
          resolve();
        }
      });
    });
    await writeFile(join(rulesDir, 'media', 'menu.png'), png(80, 40));
    await reloaded;
    const before = uploads.length;
    const [photo] = (await ask('/menu')) as Message.PhotoMessage[];
    expect(photo!.photo[0]).toMatchObject({ width: 80, height: 40 });
    expect(uploads.slice(before)).toEqual(['sendphoto:photo']);
  });
});
