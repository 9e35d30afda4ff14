// Hand-off across three replicas of one bot on one Redis: a customer and a staff member write in turn while
// any replica may handle any update and perform any effect. One topic opens; every customer message reaches it
// once and in order, and every staff answer reaches the customer once and in order.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@grammyjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/logger.js';
import { Secrets } from '../../src/log/secrets.js';
import { startService, type RunningService } from '../../src/service/start.js';
import { writeRules } from '../e2e/run-process.js';
import { lineCapture } from '../support/log-capture.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { createBotViaAssistant, groupMessages, sendAsUser, startSandbox, type StartedSandbox } from '../support/sandbox-harness.js';

const SAM = { id: 9701, first_name: 'Sam' };
const CLEO = { id: 9702, first_name: 'Cleo' };
const RULES = `rules:
  - id: human
    keywords: [human]
    handoff: true
    reply: "Asked a colleague."
  - id: help
    fallback: true
    reply: "bot: {{text}}"
`;

describe('hand-off across three replicas on Redis', () => {
  let sandbox: StartedSandbox;
  let redis: RedisServer;
  const services: RunningService[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox();
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await sandbox?.close();
    await redis?.close();
  });

  const client = async <T>(path: string, body?: unknown): Promise<T> => {
    const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const envelope = (await (await fetch(`${sandbox.baseUrl}${path}`, init)).json()) as { ok: boolean; result: T; description?: string };
    if (!envelope.ok) throw new Error(`${path}: ${envelope.description}`);
    return envelope.result;
  };
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(value)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('relays each message once and in order both ways, whichever replica handles it', async () => {
    const bot = await createBotViaAssistant(sandbox.baseUrl, { userId: 9700, name: 'Desk', username: 'handoff_replicas_bot' });
    const staff = (
      await client<{ chat_id: number }>('/client/groups', {
        title: 'Support team',
        forum: true,
        members: [SAM],
        bots: [bot.username],
        admins: [{ bot: bot.username }],
      })
    ).chat_id;
    const rules = await writeRules(RULES);
    const configDir = await mkdtemp(join(tmpdir(), 'hearsay-handoff-replicas-'));
    await writeFile(join(configDir, 'hearsay.yaml'), `chats:\n  staff: ${staff}\nhandoff: { chat: staff }\n`);
    for (let i = 0; i < 3; i++) {
      const secrets = new Secrets();
      const config = await loadConfig({
        cwd: configDir,
        env: {
          BOT_TOKEN: bot.token,
          BASE_URL: sandbox.baseUrl,
          HEARSAY_RULES: rules.dir,
          HEARSAY_DATA_DIR: await mkdtemp(join(tmpdir(), 'hearsay-handoff-replica-data-')),
          HEARSAY_POLLING_TIMEOUT: '1',
          HEARSAY_RATE_LIMITS_ENABLED: 'false',
          HEARSAY_STORE: redis.url,
        },
        secrets,
      });
      services.push(await startService(config, { logger: createLogger({ level: 'warn', destination: lineCapture().destination, secrets }) }));
    }
    await sendAsUser(sandbox.baseUrl, CLEO, bot.username, 'human');
    const [topic] = await until(
      () => client<Array<{ message_thread_id: number }>>(`/client/topics?user=${SAM.id}&chat=${staff}`),
      (list) => list.length > 0,
      'the topic',
    );
    const thread = topic!.message_thread_id;
    for (let i = 1; i <= 10; i++) {
      await sendAsUser(sandbox.baseUrl, CLEO, bot.username, `customer ${i}`);
      await client('/client/send', { user: SAM, chat: staff, topic: thread, text: `staff ${i}` });
    }
    const copies = await until(
      async () =>
        (await groupMessages(sandbox.baseUrl, SAM.id, staff))
          .filter((m: Message) => m.message_thread_id === thread && m.from?.is_bot && m.text?.startsWith('customer'))
          .map((m) => m.text),
      (texts) => texts.length >= 10,
      'the customer messages in the topic',
    );
    const answers = await until(
      async () =>
        (await client<Message[]>(`/client/messages?user=${CLEO.id}&with=${bot.username}`))
          .filter((m) => m.from?.is_bot && m.text?.startsWith('staff'))
          .map((m) => m.text),
      (texts) => texts.length >= 10,
      'the staff answers at the customer',
    );
    await new Promise((r) => setTimeout(r, 1500));
    const expected = (who: string) => Array.from({ length: 10 }, (_, i) => `${who} ${i + 1}`);
    expect(copies).toEqual(expected('customer'));
    expect(answers).toEqual(expected('staff'));
    // Still once each a while later: nothing relayed twice.
    const later = await groupMessages(sandbox.baseUrl, SAM.id, staff);
    expect(later.filter((m) => m.message_thread_id === thread && m.from?.is_bot && m.text?.startsWith('customer')).map((m) => m.text)).toEqual(
      expected('customer'),
    );
    const laterAnswers = await client<Message[]>(`/client/messages?user=${CLEO.id}&with=${bot.username}`);
    expect(laterAnswers.filter((m) => m.from?.is_bot && m.text?.startsWith('staff')).map((m) => m.text)).toEqual(expected('staff'));
    expect(await client<unknown[]>(`/client/topics?user=${SAM.id}&chat=${staff}`)).toHaveLength(1);
    const all = await client<Message[]>(`/client/messages?user=${CLEO.id}&with=${bot.username}`);
    expect(all.filter((m) => m.from?.is_bot && m.text?.startsWith('bot:'))).toEqual([]);
  });
});
