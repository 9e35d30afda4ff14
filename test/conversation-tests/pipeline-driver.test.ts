// The conversation tests' pipeline driver runs a bot on the memory store with the outbox: a rule's `send`
// reaches the other chat right after the reply, through the same Bot API double. Both drivers record media
// replies as messages naming what was sent ("[photo menu.png] caption").
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDecideDriver } from '../../src/conversation-tests/decide-driver.js';
import { png } from '../support/images.js';
import { BotApiDouble } from '../../src/conversation-tests/bot-api-double.js';
import { createPipelineDriver } from '../../src/conversation-tests/pipeline-driver.js';
import type { Update } from '../../src/api/types.js';
import { compileRules } from '../../src/engine/compile.js';

const BOT = { id: 1, username: 'desk_bot', first_name: 'Desk' };
const T0 = Date.UTC(2026, 10, 27, 12);
const said = (id: number, text: string): Update =>
  ({
    update_id: id,
    message: {
      message_id: id,
      date: T0 / 1000,
      chat: { id: 42, type: 'private', first_name: 'Ada' },
      from: { id: 42, is_bot: false, first_name: 'Ada' },
      text,
    },
  }) as Update;

describe('the pipeline driver of hearsay test', () => {
  it("performs a rule's send after its reply, through the same Bot API double", async () => {
    const clock = { now: T0 };
    const api = new BotApiDouble(BOT, clock);
    const ruleSet = compileRules([{ id: 'complaint', keywords: ['complaint'], reply: 'Sorry!', send: { to: -5, text: 'Complaint: {{text}}' } }]);
    const driver = createPipelineDriver({ ruleSet, botUsername: BOT.username, api, clock, random: () => 0, onDecision: () => undefined });
    await driver.handle(said(1, 'a complaint'));
    expect(api.outputs.map((o) => (o.kind === 'message' ? [o.chatId, o.text] : o.kind))).toEqual([
      [42, 'Sorry!'],
      [-5, 'Complaint: a complaint'],
    ]);
    await driver.close();
  });
});

describe('media in hearsay test', () => {
  it.each([
    ['pipeline', createPipelineDriver],
    ['engine', createDecideDriver],
  ] as const)('the %s driver records what a media rule sends, named as a test expects it', async (_name, create) => {
    const dir = await mkdtemp(join(tmpdir(), 'hearsay-test-media-'));
    await writeFile(join(dir, 'menu.png'), png(4, 4));
    const clock = { now: T0 };
    const api = new BotApiDouble(BOT, clock);
    const ruleSet = compileRules([
      { id: 'menu', command: 'menu', photo: join(dir, 'menu.png'), caption: "Today's menu" },
      { id: 'where', command: 'where', reply: 'Here:', location: { latitude: 52.52, longitude: 13.405, title: 'Pixel Print', address: 'Torstr. 1' } },
      { id: 'gallery', command: 'gallery', album: ['https://example.com/a.jpg', 'https://example.com/b.jpg'] },
    ]);
    const driver = create({ ruleSet, botUsername: BOT.username, api, clock, random: () => 0, onDecision: () => undefined });
    for (const [i, text] of ['/menu', '/menu', '/where', '/gallery'].entries()) await driver.handle(said(i + 1, text));
    expect(api.outputs.map((o) => (o.kind === 'message' ? o.text : o.kind))).toEqual([
      "[photo menu.png] Today's menu",
      "[photo menu.png] Today's menu",
      'Here:',
      '[venue Pixel Print, Torstr. 1]',
      '[album: photo a.jpg, photo b.jpg]',
    ]);
    await driver.close();
  });
});
